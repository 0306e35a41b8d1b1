import { signInUrl } from '../../../api/session';
import { Popover } from '../toolbar/Popover';
import { TAB_EXPORTS, tabExportLink } from './ShareMenu';

/**
 * In the header of a signed-out visitor's view-only player, where the share menu would be: the
 * tab as files for other programs (a shared lesson's export needs no account: plain links the
 * server answers as attachments), what an account adds, and the way to sign in that comes back
 * to this lesson.
 */
export function SignedOutInvite({ jobId }: { jobId: string }) {
  return (
    <div className="lp-signed-out">
      <Popover
        label="Download tab"
        align="right"
        role="menu"
        button={<span className="lp-tool-label">Download tab</span>}
        nameFromContent
      >
        {(close) => (
          <div className="lp-share" aria-label="Download tab">
            {TAB_EXPORTS.map(({ format, label }) => (
              <a
                key={format}
                role="menuitem"
                className="lp-menu-item"
                href={tabExportLink(jobId, format)}
                download
                onClick={close}
              >
                {label}
              </a>
            ))}
          </div>
        )}
      </Popover>
      <span>
        Viewing as a guest. Sign in to rate this lesson and turn your own videos into tabs.
      </span>
      <a className="button small" href={signInUrl(`/lesson/${encodeURIComponent(jobId)}`)}>
        Sign in
      </a>
    </div>
  );
}
