import { Stars } from '../../../ui/Stars';
import { RatePopup } from './RatePopup';

/** Lesson name, 'by @handle', rating, opens and unique viewers, and the Rate popup. */
export function PlayerHeader(props: {
  name: string;
  ownerHandle: string | null;
  stars: number | null;
  starsCount: number;
  opens: number | null;
  viewers: number | null;
  canRate: boolean;
  myStars: number | null;
  rating: boolean;
  onRate: (stars: number) => void;
}) {
  const { name, ownerHandle, opens, viewers } = props;
  return (
    <header className="lp-header">
      <div className="lp-title">
        <h1>{name}</h1>
        {ownerHandle && <span className="lp-owner">by @{ownerHandle}</span>}
      </div>
      <div className="lp-stats" aria-label="Lesson stats">
        <Stars average={props.stars} count={props.starsCount} />
        <span title="Total opens">
          <strong>{opens ?? '–'}</strong> {opens === 1 ? 'open' : 'opens'}
        </span>
        <span title="Unique viewers">
          <strong>{viewers ?? '–'}</strong> {viewers === 1 ? 'viewer' : 'viewers'}
        </span>
        {props.canRate && (
          <RatePopup mine={props.myStars} busy={props.rating} onRate={props.onRate} />
        )}
      </div>
    </header>
  );
}
