import { MESSAGES } from '@riffscribe/core';
import { Icon } from '../../ui/Icon';
import type { JobView } from './homeFlow';
import { JobFacts } from './JobFacts';

/** 'Processing Unsuccessful': what happened, the ids to quote, and the ways out. */
export function ErrorScreen(props: { job: JobView; email: string; onReset: () => void }) {
  const { job, email, onReset } = props;
  return (
    <div className="status-screen failed" aria-labelledby="failed-title">
      <div className="status-head">
        <span className="status-orb is-error" aria-hidden="true">
          <Icon name="alert" size={26} />
        </span>
        <div>
          <h2 id="failed-title">Processing Unsuccessful</h2>
          <p className="status-message" role="alert">
            {MESSAGES.jobFailed}
          </p>
        </div>
      </div>

      <div className="failure-text">
        <p>Please make sure the entrie fretboard is visible in the video.</p>
        <p>
          Sometimes very complex audio (several instruments, heavy effects, loud backing tracks) or
          a temporary hiccup on our side gets in the way. Trying again often helps.
        </p>
        <p>
          Still stuck? Contact us by e-mail or on social media and quote the Job ID or the Request
          ID below.
        </p>
      </div>

      <JobFacts
        facts={[
          ['E-mail', email],
          ['Request ID', job.requestId || '—'],
          ['Job ID', job.jobId || '—'],
          ['Error message', job.error ?? MESSAGES.jobFailed],
        ]}
      />

      <div className="status-actions">
        <button type="button" className="button" onClick={onReset}>
          <Icon name="upload" size={18} /> Try a Different File
        </button>
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            window.location.reload();
          }}
        >
          <Icon name="refresh" size={18} /> Refresh Page
        </button>
        <button type="button" className="button ghost" onClick={onReset}>
          Reset
        </button>
      </div>
    </div>
  );
}
