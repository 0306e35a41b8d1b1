import { STATUS_POLL_INTERVAL_MS } from '@riffscribe/core';
import { Link } from 'react-router';
import { Icon } from '../../ui/Icon';
import { ProgressBar } from '../../ui/ProgressBar';
import { processingLabel, stageText, type JobView } from './homeFlow';
import { JobFacts } from './JobFacts';

/** 'Processing Your Video': the job's facts, its progress, and what to do meanwhile. */
export function ProcessingScreen(props: { job: JobView; completing: boolean }) {
  const { job, completing } = props;
  const label = processingLabel(job.stage);
  return (
    <div className="status-screen processing" aria-labelledby="processing-title">
      <div className="status-head">
        <span className={`status-orb ${completing ? 'is-done' : ''}`} aria-hidden="true">
          <Icon name={completing ? 'check' : 'spark'} size={26} />
        </span>
        <div>
          <h2 id="processing-title">Processing Your Video</h2>
          <p className="status-message" role="status" aria-live="polite">
            {job.message}
          </p>
        </div>
      </div>

      <div className="progress-block">
        <div className="progress-caption">
          <span className="progress-label">{label}</span>
          <span className="progress-percent">{job.progress}%</span>
        </div>
        <ProgressBar
          value={job.progress}
          label={`${label}: ${String(job.progress)}%`}
          tone={completing ? 'success' : 'accent'}
        />
      </div>

      <JobFacts
        facts={[
          ['File name', job.fileName || '—'],
          ['Stage', stageText(job.stage)],
          ['Request ID', job.requestId || '—'],
          ['Job ID', job.jobId],
        ]}
      />

      <p className="keep-open">
        <Icon name="clock" size={18} /> Keep this tab open: processing takes a few minutes (about 4
        for a 30-second clip). We check on it every {STATUS_POLL_INTERVAL_MS / 1000} seconds.
      </p>

      <div className="tips">
        <h3>While you wait</h3>
        <ul>
          <li>
            Find this lesson any time in <Link to="/my-videos">My videos</Link>, even after closing
            this tab.
          </li>
          <li>Rename the project there to something you will recognise later.</li>
          <li>When it is ready, share the link with your students or bandmates.</li>
        </ul>
      </div>
    </div>
  );
}
