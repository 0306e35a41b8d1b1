import type { AuthUser } from '../context.js';
import { JOB_NOT_FOUND, forbidden, notFound } from '../errors.js';
import type { JobRecord, JobsRepository } from '../repositories/jobs.repository.js';

export interface JobAccess {
  job: JobRecord;
  isOwner: boolean;
}

/** A lesson anyone signed in may look at: shared to Explore or to a personal page. */
export function isShared(job: JobRecord): boolean {
  return job.sharedToExplore || job.sharedToPersonal;
}

/**
 * Who may see which job. The owner sees theirs; others see shared lessons only. Another user's
 * private job answers 404 exactly like a job that does not exist, so its existence never leaks.
 */
export class JobAccessPolicy {
  constructor(private readonly jobs: JobsRepository) {}

  /** `user` null: a signed-out visitor, who sees shared lessons only. */
  async visible(jobId: string, user: AuthUser | null): Promise<JobAccess> {
    const job = await this.jobs.findById(jobId);
    if (!job) throw notFound(JOB_NOT_FOUND);
    const isOwner = user !== null && job.ownerUid === user.uid;
    if (!isOwner && !isShared(job)) throw notFound(JOB_NOT_FOUND);
    return { job, isOwner };
  }

  /** The owner only; a non-owner of a shared lesson gets 403, of a private one 404. */
  async owned(jobId: string, user: AuthUser): Promise<JobRecord> {
    const { job, isOwner } = await this.visible(jobId, user);
    if (!isOwner) throw forbidden('Only the owner of this lesson can do that.');
    return job;
  }
}
