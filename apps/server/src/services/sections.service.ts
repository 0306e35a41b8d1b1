import { randomUUID } from 'node:crypto';
import type { PutSectionsBody, Section } from '@riffscribe/core';
import type { AppContext, AuthUser } from '../context.js';
import { JobsRepository } from '../repositories/jobs.repository.js';
import { SectionsRepository } from '../repositories/sections.repository.js';
import { JobAccessPolicy } from './job-access.js';

/**
 * Sections (issue 40 part 3): each signed-in user's named loops of a lesson they may see (their
 * own, or one shared with them), theirs only: nobody else reads or changes them, the owner of the
 * lesson included. A lesson they may not see is "not found", as for the rating.
 */
export class SectionsService {
  private readonly access: JobAccessPolicy;
  private readonly sections: SectionsRepository;

  constructor(ctx: AppContext) {
    this.access = new JobAccessPolicy(new JobsRepository(ctx.database.db));
    this.sections = new SectionsRepository(ctx.database.db);
  }

  async list(user: AuthUser, jobId: string): Promise<Section[]> {
    const { job } = await this.access.visible(jobId, user);
    return this.sections.list(job.id, user.uid);
  }

  /** Replaces the caller's list (checked by core's putSectionsBodySchema) as a whole. */
  async replace(
    user: AuthUser,
    jobId: string,
    sections: PutSectionsBody['sections'],
  ): Promise<Section[]> {
    const { job } = await this.access.visible(jobId, user);
    const rows = sections.map((s, position) => ({
      id: s.id ?? randomUUID(),
      name: s.name,
      start: s.start,
      end: s.end,
      position,
    }));
    return this.sections.replace(job.id, user.uid, rows);
  }
}
