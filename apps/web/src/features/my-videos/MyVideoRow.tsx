import type { MyJobItem } from '@riffscribe/core';
import { useOptimistic, useTransition } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../ui/Icon';
import { ProgressBar } from '../../ui/ProgressBar';
import { Thumbnail } from '../explore/Thumbnail';
import { stageText } from '../home/homeFlow';
import { isInProgress } from './jobStatus';
import { RenameField } from './RenameField';
import { StatusBadge } from './StatusBadge';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One of the user's jobs: name (renamable), status and progress, sharing, and Open. */
export function MyVideoRow(props: {
  item: MyJobItem;
  onRename: (name: string | null) => Promise<unknown>;
  /** Saves the share state; settles once the list is reloaded. */
  onShare: (shared: boolean) => Promise<unknown>;
}) {
  const { item, onRename, onShare } = props;
  // The clicked state, shown from the click itself until the save and the reload have ended;
  // then the list's own state again (the old one if the save failed).
  const [shared, setShared] = useOptimistic(item.sharedToExplore);
  const [saving, startSaving] = useTransition();
  const inProgress = isInProgress(item.status);
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
            checked={shared}
            disabled={!done || saving}
            onChange={(event) => {
              const next = event.target.checked;
              startSaving(async () => {
                setShared(next);
                await onShare(next);
              });
            }}
          />
          <span className="switch-track" aria-hidden="true" />
          <span>Share to Explore</span>
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
