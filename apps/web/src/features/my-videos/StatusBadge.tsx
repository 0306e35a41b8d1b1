import type { JobStatus } from '@riffscribe/core';

const LABELS: Record<JobStatus, string> = {
  queued: 'Queued',
  processing: 'Processing',
  completed: 'Ready',
  failed: 'Failed',
};

/** A job's status as a coloured badge. */
export function StatusBadge(props: { status: JobStatus }) {
  return <span className={`badge badge-${props.status}`}>{LABELS[props.status]}</span>;
}
