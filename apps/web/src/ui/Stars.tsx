/** An average rating (1..5, or null when unrated) as five stars with the count beside it. */
export function Stars(props: { average: number | null; count: number }) {
  const { average, count } = props;
  const label =
    average === null || count === 0
      ? 'Not rated yet'
      : `Rated ${average.toFixed(1)} out of 5 by ${String(count)} ${count === 1 ? 'person' : 'people'}`;
  const fill = average === null ? 0 : Math.max(0, Math.min(5, average)) * 20;
  return (
    <span className="stars" role="img" aria-label={label}>
      <span className="stars-track" aria-hidden="true">
        ★★★★★
        <span className="stars-fill" style={{ width: `${String(fill)}%` }}>
          ★★★★★
        </span>
      </span>
      <span className="stars-text" aria-hidden="true">
        {average === null || count === 0 ? 'New' : `${average.toFixed(1)} (${String(count)})`}
      </span>
    </span>
  );
}
