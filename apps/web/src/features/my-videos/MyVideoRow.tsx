import type { MyJobItem } from '@riffscribe/core';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../ui/Icon';
import { ProgressBar } from '../../ui/ProgressBar';
import { Thumbnail } from '../explore/Thumbnail';
import { stageText } from '../home/homeFlow';
import { RenameField } from './RenameField';
import { StatusBadge } from './StatusBadge';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One of the user's jobs: name (renamable), status and progress, sharing, and Open. */
export function MyVideoRow(props: {
  item: MyJobItem;
  onRename: (name: string | null) => Promise<unknown>;
  onShare: (shared: boolean) => void;
  /** The share state being saved, shown at once; undefined when nothing is being saved. */
  sharing: boolean | undefined;
}) {
  const { item, onRename, onShare, sharing } = props;
  // The switch moves on the click itself: the page's saving state arrives a tick later, and a
  // controlled checkbox would flick back in between. Dropped once that save has finished.
  const [clicked, setClicked] = useState<boolean | undefined>(undefined);
  const wasSaving = useRef(false);
  useEffect(() => {
    if (sharing !== undefined) wasSaving.current = true;
    else if (wasSaving.current) {
      wasSaving.current = false;
      setClicked(undefined);
    }
  }, [sharing]);
  const inProgress = item.status === 'queued' || item.status === 'processing';
  const done = item.status === 'completed';
  return (
    <li className="video-row">
      <Thumbnail url={item.thumbnailUrl} />
      <div className="video-row-main">
        <RenameField projectName={item.projectName} fileName={item.fileName} onSave={onRename} />
        <p className="muted small">
          {item.fileName} · {dateFormat.format(new Date(item.createdAt))}
        </p>
        <div className="video-row-status">
          <StatusBadge status={item.status} />
          {inProgress ? (
            <div className="video-row-progress">
              <ProgressBar value={item.progress} label={`Progress of ${item.fileName}`} />
              <span className="small muted">
                {stageText(item.stage)} · {item.progress}%
              </span>
            </div>
          ) : null}
          {item.status === 'failed' && item.error ? (
            <span className="small error-text">{item.error}</span>
          ) : null}
        </div>
      </div>
      <div className="video-row-actions">
        <label className={`switch ${done ? '' : 'is-disabled'}`}>
          <input
            type="checkbox"
            role="switch"
            checked={sharing ?? clicked ?? item.sharedToExplore}
            disabled={!done || sharing !== undefined}
            onChange={(event) => {
              setClicked(event.target.checked);
              onShare(event.target.checked);
            }}
          />
          <span className="switch-track" aria-hidden="true" />
          <span>Shared to Explore</span>
        </label>
        {item.sharedToPersonal ? <span className="badge">On personal page</span> : null}
        <Link
          className="button secondary small"
          to={`/?jobId=${encodeURIComponent(item.jobId)}#upload`}
        >
          <Icon name="play" size={16} /> Open
        </Link>
      </div>
    </li>
  );
}
