import type { MeResponse, MyCreditsResponse } from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/authenticate.js';
import { unauthorized } from '../errors.js';
import type { Services } from '../services/index.js';

/** GET /api/me and GET /api/my-credits. */
export function registerMeRoutes(app: FastifyInstance, services: Services): void {
  app.get('/api/me', async (request): Promise<MeResponse> => {
    const { uid } = requireUser(request);
    const user = await services.accounts.users.findById(uid);
    if (!user) throw unauthorized('Your account no longer exists. Please sign in again.');
    return {
      uid: user.uid,
      email: user.email,
      handle: user.handle,
      name: user.name,
      role: user.role,
    };
  });

  app.get('/api/my-credits', async (request): Promise<MyCreditsResponse> => {
    const { uid } = requireUser(request);
    const b = await services.credits.balances(uid);
    return { credits: { creatorRemaining: b.creator, viewRemaining: b.view } };
  });
}
