/** The Riffscribe mark: six tab strings with a note on them, in a rounded tile. */
export function BrandMark(props: { size?: number }) {
  const size = props.size ?? 30;
  return (
    <svg
      className="brand-mark"
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
    >
      <defs>
        <linearGradient id="rs-mark" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ffb347" />
          <stop offset="1" stopColor="#ff6a2b" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="url(#rs-mark)" />
      {[8.5, 11.5, 14.5, 17.5, 20.5, 23.5].map((y) => (
        <line
          key={y}
          x1="6"
          x2="26"
          y1={y}
          y2={y}
          stroke="#2a1405"
          strokeOpacity="0.45"
          strokeWidth="1"
        />
      ))}
      <rect x="11" y="12.5" width="7" height="7" rx="3.5" fill="#1b0d03" />
      <path d="M18 16h7.5" stroke="#1b0d03" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}
