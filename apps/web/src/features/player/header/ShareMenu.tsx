import { isPrivileged, type Role } from '@riffscribe/core';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import { session } from '../../../api/session';
import { Dialog } from '../../../ui/Dialog';
import { download as saveFile } from '../../../ui/download';
import { UpgradeRequest } from '../../credits/UpgradeRequest';
import { Popover } from '../toolbar/Popover';

type ShareFlag = 'sharedToExplore' | 'sharedToPersonal';

/** How long 'Copy share link' shows its confirmation (spec section 4, Share toggles). */
const COPIED_MS = 2000;

/** The tab as files for other programs (`GET /api/export`), in the order the menu lists them. */
export const TAB_EXPORTS = [
  { format: 'gp', label: 'Guitar Pro 7 (.gp)' },
  { format: 'musicxml', label: 'MusicXML (.musicxml)' },
  { format: 'midi', label: 'MIDI (.mid)' },
  { format: 'txt', label: 'Text tab (.txt)' },
] as const;

export type TabExportFormat = (typeof TAB_EXPORTS)[number]['format'];

/** Where the tab of a lesson downloads in `format`: the saved version the player shows. */
export function tabExportLink(jobId: string, format: TabExportFormat) {
  return `/api/export?jobId=${encodeURIComponent(jobId)}&format=${format}`;
}

/** Which tab a share link opens on: the saved edits, or the AI's original. */
export type ShareVersion = 'edited' | 'original';

/**
 * The address a lesson is shared at: its page, with the spec's `jobId` and `version` query
 * parameters (the player opens on that version of the tab).
 */
export function shareLink(
  jobId: string,
  version: ShareVersion = 'edited',
  origin = window.location.origin,
): string {
  const id = encodeURIComponent(jobId);
  return `${origin}/lesson/${id}?jobId=${id}&version=${version}`;
}

/**
 * The player's share menu (spec section 4, Share menu): Share to Explore and Share to Personal
 * flip the lesson's flags (owner only), Copy share link copies its address with a 2 s
 * confirmation, and the Pro-only actions (Share to Personal, Export video with tabs) are shown
 * locked with a PRO badge for a free user, opening the Upgrade to Pro dialog. Under them, the
 * tab downloads for other programs (Guitar Pro, MusicXML, MIDI, text), for anyone who can see it.
 */
export function ShareMenu(props: {
  jobId: string;
  role: Role;
  isOwner: boolean;
  sharedToExplore: boolean;
  sharedToPersonal: boolean;
  /** The version of the tab on screen, which the copied link opens. */
  version?: ShareVersion;
  /** The signed-in user's handle: a Pro owner's menu links to their personal page. */
  handle?: string;
  /** Flips one of the owner's flags; rejects with a message the menu shows. */
  onShare: (flag: ShareFlag, on: boolean) => Promise<void>;
  /** Opens the export dialog (a pilot or admin owner with edit access, the lesson loaded). */
  onExport?: () => void;
}) {
  const { jobId, role, isOwner } = props;
  const pro = isPrivileged(role);
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [upgrade, setUpgrade] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => {
      setCopied(false);
    }, COPIED_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [copied]);

  // The switches move at once (an override until the server's answer is in the props); a
  // refused change drops the override, so they show the stored value, with the reason.
  const [override, setOverride] = useState<Partial<Record<ShareFlag, boolean>>>({});
  const shown = (flag: ShareFlag) => override[flag] ?? props[flag];
  const flip = async (flag: ShareFlag, on: boolean): Promise<boolean> => {
    setBusy(true);
    setError(null);
    setOverride((o) => ({ ...o, [flag]: on }));
    try {
      await props.onShare(flag, on);
      return true;
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The change could not be saved. Please try again.');
      return false;
    } finally {
      setOverride((o) => ({ ...o, [flag]: undefined }));
      setBusy(false);
    }
  };
  // The owner of a private lesson is told that the link would open for nobody else, and offered
  // to share it first; anyone else sees a shared lesson (or the owner's own, shared).
  const [privateNotice, setPrivateNotice] = useState(false);
  const isPrivate = isOwner && !shown('sharedToExplore') && !shown('sharedToPersonal');
  const link = shareLink(jobId, props.version ?? 'edited');
  const writeLink = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      setError(`Copy this link: ${link}`);
    }
  };
  const copy = async () => {
    setError(null);
    if (isPrivate) setPrivateNotice(true);
    else await writeLink();
  };
  const shareAndCopy = async (flag: ShareFlag) => {
    if (!(await flip(flag, true))) return;
    setPrivateNotice(false);
    await writeLink();
  };
  // Where the private notice offers to share: Explore, and for a Pro owner their personal page.
  const shareChoices: [ShareFlag, string][] = [
    ['sharedToExplore', 'Share to Explore and copy link'],
    ...(pro
      ? [['sharedToPersonal', 'Share to Personal and copy link'] as [ShareFlag, string]]
      : []),
  ];
  // A tab file: fetched with the session's token (a private lesson is not a public link), then
  // handed to the browser as a download under the name the server gave it.
  const [downloading, setDownloading] = useState<TabExportFormat | null>(null);
  const download = async (format: TabExportFormat, close: () => void) => {
    setError(null);
    setDownloading(format);
    try {
      const { blob, name } = await session.file(tabExportLink(jobId, format));
      const url = URL.createObjectURL(blob);
      saveFile(url, name ?? `lesson.${format}`);
      setTimeout(() => {
        URL.revokeObjectURL(url);
      }, 60_000);
      close();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The file could not be made. Please try again.');
    } finally {
      setDownloading(null);
    }
  };
  const toggle = (flag: ShareFlag, label: string) => (
    <label className="lp-menu-item lp-share-toggle">
      <span>{label}</span>
      <input
        type="checkbox"
        role="switch"
        checked={shown(flag)}
        disabled={busy}
        onChange={(e) => void flip(flag, e.target.checked)}
      />
    </label>
  );
  const locked = (label: string) => (
    <button
      type="button"
      className="lp-menu-item lp-share-locked"
      onClick={() => {
        setUpgrade(true);
      }}
    >
      <span>{label}</span>
      <span className="pro-badge" aria-label="Pro feature">
        PRO
      </span>
    </button>
  );

  return (
    <>
      <Popover
        label="Share"
        align="right"
        role="dialog"
        button={<span className="lp-tool-label">Share</span>}
        nameFromContent
      >
        {(close) => (
          <div className="lp-share">
            {isOwner && toggle('sharedToExplore', 'Share to Explore')}
            <button type="button" className="lp-menu-item" onClick={() => void copy()}>
              <span>Copy share link</span>
              {copied && (
                <span className="lp-share-done" role="status">
                  Link copied
                </span>
              )}
            </button>
            {privateNotice && isPrivate && (
              <div className="lp-share-private" role="alert">
                <p>
                  This lesson is private: the link opens only for you. Share it first so others can
                  open it.
                </p>
                <div className="lp-share-private-actions">
                  {shareChoices.map(([flag, label], k) => (
                    <button
                      key={flag}
                      type="button"
                      className={k === 0 ? 'button small' : 'button small secondary'}
                      disabled={busy}
                      onClick={() => void shareAndCopy(flag)}
                    >
                      {label}
                    </button>
                  ))}
                </div>
              </div>
            )}
            {isOwner &&
              (pro ? toggle('sharedToPersonal', 'Share to Personal') : locked('Share to Personal'))}
            {isOwner && pro && props.handle && (
              <Link
                className="lp-menu-item lp-share-page"
                to={`/u/${encodeURIComponent(props.handle)}`}
              >
                <span>Your personal page</span>
                <span className="muted small">/u/{props.handle}</span>
              </Link>
            )}
            {isOwner &&
              (pro ? (
                <button
                  type="button"
                  className="lp-menu-item"
                  disabled={!props.onExport}
                  title={
                    props.onExport
                      ? undefined
                      : 'Export needs edit access to the lesson, and the lesson loaded.'
                  }
                  onClick={() => {
                    close();
                    props.onExport?.();
                  }}
                >
                  <span>Export video with tabs</span>
                </button>
              ) : (
                locked('Export video with tabs')
              ))}
            <p className="lp-menu-heading" id="lp-download-tab">
              Download tab
            </p>
            <div role="group" aria-labelledby="lp-download-tab" className="lp-share-downloads">
              {TAB_EXPORTS.map(({ format, label }) => (
                <button
                  key={format}
                  type="button"
                  className="lp-menu-item"
                  disabled={downloading !== null}
                  onClick={() => void download(format, close)}
                >
                  <span>{label}</span>
                  {downloading === format && (
                    <span className="lp-share-done" role="status">
                      Preparing…
                    </span>
                  )}
                </button>
              ))}
            </div>
            {error && (
              <p className="lp-share-error" role="alert">
                {error}
              </p>
            )}
          </div>
        )}
      </Popover>
      {/* In the page's body: the header's nowrap stats row must not lay out the dialog. */}
      {createPortal(
        <Dialog
          open={upgrade}
          title="Upgrade to Pro"
          onClose={() => {
            setUpgrade(false);
          }}
          actions={
            <button
              type="button"
              className="button ghost"
              onClick={() => {
                setUpgrade(false);
              }}
            >
              Close
            </button>
          }
        >
          <p>
            Pro adds 10 creation credits a month, export of videos with the tabs overlaid, sharing
            to your personal page and priority support.
          </p>
          {/* Mounted per opening: a request sent earlier shows as under review, with its date. */}
          {upgrade && <UpgradeRequest role={role} />}
        </Dialog>,
        document.body,
      )}
    </>
  );
}
