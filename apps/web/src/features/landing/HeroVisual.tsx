/** Decorative notes for the hero's tab preview: string (1 = high e), fret, start x, width. */
const NOTES: readonly { s: number; f: string; x: number; w: number; t?: string }[] = [
  { s: 5, f: '0', x: 40, w: 70 },
  { s: 3, f: '2', x: 92, w: 60 },
  { s: 2, f: '1', x: 132, w: 56 },
  { s: 1, f: '0', x: 172, w: 90, t: '~' },
  { s: 4, f: '3', x: 232, w: 60 },
  { s: 2, f: '3', x: 282, w: 54 },
  { s: 3, f: '5', x: 330, w: 80, t: '½' },
  { s: 1, f: '3', x: 392, w: 44 },
  { s: 6, f: '3', x: 420, w: 90 },
  { s: 2, f: '5', x: 470, w: 48, t: 'h' },
];
const CHORDS = [
  { x: 40, name: 'Am' },
  { x: 232, name: 'C' },
  { x: 420, name: 'G' },
];
const CHORD_WIDTH = 126;
const STRING_NAMES = ['e', 'B', 'G', 'D', 'A', 'E'];
const y = (s: number) => 70 + (s - 1) * 26;

/** The hero's picture: a stylised tab lane of the player, notes, chords and a playhead. */
export function HeroVisual() {
  return (
    <div className="hero-visual" aria-hidden="true">
      <div className="hero-visual-bar">
        <span className="dot" />
        <span className="dot" />
        <span className="dot" />
        <span className="hero-visual-title">Fingerstyle in A minor · Standard · capo 0</span>
      </div>
      <svg viewBox="0 0 560 250" className="hero-tab" role="presentation">
        <defs>
          <linearGradient id="hero-note" x1="0" x2="1">
            <stop offset="0" stopColor="#ffb347" />
            <stop offset="1" stopColor="#ff7a2b" />
          </linearGradient>
        </defs>
        {CHORDS.map((c) => (
          <g key={c.x}>
            <rect x={c.x} y={22} width={CHORD_WIDTH} height={24} rx={6} className="hero-chord" />
            <text x={c.x + 10} y={39} className="hero-chord-text">
              {c.name}
            </text>
          </g>
        ))}
        {STRING_NAMES.map((name, i) => (
          <g key={name + String(i)}>
            <text x={14} y={y(i + 1) + 4} className="hero-string-name">
              {name}
            </text>
            <line x1={30} x2={550} y1={y(i + 1)} y2={y(i + 1)} className="hero-string" />
          </g>
        ))}
        {NOTES.map((n) => (
          <g key={`${String(n.s)}-${String(n.x)}`}>
            <rect
              x={n.x}
              y={y(n.s) - 10}
              width={n.w}
              height={20}
              rx={10}
              className="hero-note-tail"
            />
            <circle cx={n.x + 10} cy={y(n.s)} r={11} fill="url(#hero-note)" />
            <text x={n.x + 10} y={y(n.s) + 4} textAnchor="middle" className="hero-fret">
              {n.f}
            </text>
            {n.t ? (
              <text x={n.x + 26} y={y(n.s) - 13} className="hero-technique">
                {n.t}
              </text>
            ) : null}
          </g>
        ))}
        <line x1={300} x2={300} y1={16} y2={226} className="hero-playhead" />
        <circle cx={300} cy={16} r={5} className="hero-playhead-knob" />
      </svg>
      <div className="hero-visual-foot">
        <span className="hero-visual-play">▶</span>
        <span className="hero-visual-track">
          <span />
        </span>
        <span className="hero-visual-time">0:12 / 0:30</span>
        <span className="hero-visual-speed">0.75×</span>
      </div>
    </div>
  );
}
