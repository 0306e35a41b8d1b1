import { RATING_MAX, RATING_MIN } from '@riffscribe/core';
import { Popover } from '../toolbar/Popover';

const VALUES = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

/** The Rate popup: 1 to 5 stars; the caller's own rating is shown checked. */
export function RatePopup(props: {
  mine: number | null;
  busy: boolean;
  onRate: (stars: number) => void;
}) {
  const { mine, busy, onRate } = props;
  return (
    <Popover
      label="Rate"
      align="right"
      disabled={busy}
      button={
        <span className="lp-tool-label">{mine ? `Your rating: ${String(mine)}★` : 'Rate'}</span>
      }
    >
      {(close) => (
        <div className="lp-rate" role="group" aria-label="Rate this lesson">
          {VALUES.map((v) => (
            <button
              key={v}
              type="button"
              role="menuitemradio"
              aria-checked={mine === v}
              aria-label={`Rate ${String(v)} out of ${String(RATING_MAX)}`}
              className={mine !== null && v <= mine ? 'lp-star on' : 'lp-star'}
              onClick={() => {
                onRate(v);
                close();
              }}
            >
              ★
            </button>
          ))}
        </div>
      )}
    </Popover>
  );
}
