import { randomUUID } from 'node:crypto';
import { MESSAGES, isPrivileged, type UpgradeRequestsResponse } from '@riffscribe/core';
import type { AppContext, AuthUser } from '../context.js';
import { conflict } from '../errors.js';
import { UpgradeRequestsRepository } from '../repositories/upgrade-requests.repository.js';

/** Requests for the Pro plan; an empty message becomes the spec's default text. */
export class UpgradeService {
  private readonly repo: UpgradeRequestsRepository;

  constructor(ctx: AppContext) {
    this.repo = new UpgradeRequestsRepository(ctx.database.db);
  }

  async status(user: AuthUser): Promise<UpgradeRequestsResponse> {
    const latest = await this.repo.latest(user.uid);
    return {
      hasPending: latest?.status === 'pending',
      request: latest
        ? {
            message: latest.message,
            createdAt: latest.createdAt.toISOString(),
            status: latest.status,
          }
        : null,
    };
  }

  async request(user: AuthUser, message: string | undefined): Promise<UpgradeRequestsResponse> {
    if (isPrivileged(user.role)) throw conflict('Your account already has the Pro features.');
    const text = message?.trim() ? message.trim() : MESSAGES.defaultUpgradeMessage;
    const created = await this.repo.create(randomUUID(), user.uid, text);
    if (!created) throw conflict('Your upgrade request is already under review.');
    return this.status(user);
  }
}
