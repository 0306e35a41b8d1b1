import type { MyJobItem } from '@riffscribe/core';
import { lessonDisplayName } from '@riffscribe/core';
import { useOptimistic, useState, useTransition } from 'react';
import { createPortal } from 'react-dom';
import { Dialog } from '../../ui/Dialog';
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
  /** Deletes the lesson for good; rejects with the reason when it cannot. */
  onDelete: () => Promise<unknown>;
}) {
  const { item, onRename, onShare, onDelete } = props;
  const [confirming, setConfirming] = useState(false);
  const [deleting, startDeleting] = useTransition();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const name = lessonDisplayName(item.projectName, null, item.fileName);
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
        <button
          type="button"
          className="button ghost small"
          disabled={inProgress}
          title={inProgress ? 'A lesson can be deleted once it is done.' : undefined}
          aria-label={`Delete ${name}`}
          onClick={() => {
            setDeleteError(null);
            setConfirming(true);
          }}
        >
          <Icon name="trash" size={16} /> Delete
        </button>
      </div>
      {createPortal(
        <Dialog
          open={confirming}
          title="Delete this lesson?"
          onClose={() => {
            if (!deleting) setConfirming(false);
          }}
          actions={
            <>
              <button
                type="button"
                className="button ghost"
                disabled={deleting}
                onClick={() => {
                  setConfirming(false);
                }}
              >
                Cancel
              </button>
              <button
                type="button"
                className="button danger"
                disabled={deleting}
                onClick={() => {
                  startDeleting(async () => {
                    try {
                      await onDelete();
                      setConfirming(false);
                    } catch (error) {
                      setDeleteError(
                        error instanceof Error ? error.message : 'The lesson could not be deleted.',
                      );
                    }
                  });
                }}
              >
                {deleting ? 'Deleting…' : 'Delete lesson'}
              </button>
            </>
          }
        >
          <p>
            <strong>{name}</strong>, its video and its tabs are deleted for good.
            {item.sharedToExplore || item.sharedToPersonal
              ? ' It is shared: it leaves Explore and your personal page, and its links stop working.'
              : ''}{' '}
            Credits spent on it are not returned.
          </p>
          {deleteError ? (
            <p className="form-error" role="alert">
              {deleteError}
            </p>
          ) : null}
        </Dialog>,
        document.body,
      )}
    </li>
  );
}
