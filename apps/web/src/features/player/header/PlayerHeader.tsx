import type { ReactNode } from 'react';
import { Stars } from '../../../ui/Stars';
import { RenameField } from '../../my-videos/RenameField';
import { RatePopup } from './RatePopup';

/**
 * Lesson name (editable in place for editors, spec section 6), 'by @handle', rating, opens and
 * unique viewers, and the Rate popup.
 */
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
  /** Present for editors: the stored name and file name, and how to save a new name. */
  rename?: {
    projectName: string | null;
    fileName: string;
    onSave: (name: string | null) => Promise<unknown>;
  } | null;
  /** The share menu, at the right of the stats. */
  share?: ReactNode;
}) {
  const { name, ownerHandle, opens, viewers } = props;
  return (
    <header className="lp-header">
      <div className="lp-title">
        <h1 className={props.rename ? 'visually-hidden' : undefined}>{name}</h1>
        {props.rename && (
          <RenameField
            projectName={props.rename.projectName}
            fileName={props.rename.fileName}
            onSave={props.rename.onSave}
          />
        )}
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
        {props.share}
      </div>
    </header>
  );
}
