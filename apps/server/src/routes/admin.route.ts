import {
  adminDecisionBodySchema,
  adminGrantBodySchema,
  adminSetBalanceBodySchema,
  adminJobParamsSchema,
  adminRequestParamsSchema,
  adminSetRoleBodySchema,
  adminUserParamsSchema,
  adminUsersQuerySchema,
} from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAdmin } from '../auth/authenticate.js';
import type { Services } from '../services/index.js';

/**
 * /api/admin/*: the admin console's calls. Sign-in is checked before the body is read (as on
 * every protected route); the admin role, read from the account on every call, right after.
 */
export function registerAdminRoutes(root: FastifyInstance, services: Services): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { admin } = services;
  const adminOnly = {
    onRequest: (
      request: Parameters<typeof requireAdmin>[0],
      _reply: unknown,
      done: (e?: Error) => void,
    ) => {
      try {
        requireAdmin(request);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  };

  app.get(
    '/api/admin/users',
    { ...adminOnly, schema: { querystring: adminUsersQuerySchema } },
    (request) => admin.listUsers(request.query.email, request.query.page ?? 1),
  );

  app.patch(
    '/api/admin/users/:uid/role',
    { ...adminOnly, schema: { params: adminUserParamsSchema, body: adminSetRoleBodySchema } },
    async (request) => {
      await admin.setRole(requireAdmin(request), request.params.uid, request.body.role);
      return { role: request.body.role };
    },
  );

  app.post(
    '/api/admin/users/:uid/credits',
    { ...adminOnly, schema: { params: adminUserParamsSchema, body: adminGrantBodySchema } },
    async (request) => ({
      credits: await admin.grant(requireAdmin(request), request.params.uid, request.body),
    }),
  );

  app.put(
    '/api/admin/users/:uid/credits',
    { ...adminOnly, schema: { params: adminUserParamsSchema, body: adminSetBalanceBodySchema } },
    async (request) => ({
      credits: await admin.setBalance(requireAdmin(request), request.params.uid, request.body),
    }),
  );

  app.get('/api/admin/upgrade-requests', adminOnly, () => admin.pendingUpgrades());

  app.post(
    '/api/admin/upgrade-requests/:id',
    { ...adminOnly, schema: { params: adminRequestParamsSchema, body: adminDecisionBodySchema } },
    async (request) => {
      await admin.decide(request.params.id, request.body.decision);
      return { decided: request.body.decision };
    },
  );

  app.get('/api/admin/failed-jobs', adminOnly, () => admin.failedJobs());

  app.post(
    '/api/admin/jobs/:id/retry',
    { ...adminOnly, schema: { params: adminJobParamsSchema } },
    async (request) => {
      await admin.retry(request.params.id);
      return { queued: true };
    },
  );

  app.get('/api/admin/health', adminOnly, () => admin.health());
}
