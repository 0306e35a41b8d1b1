import type { FastifyInstance } from 'fastify';
import { registerAuthRoutes } from '../auth/auth.routes.js';
import type { AppContext } from '../context.js';
import { registerStorageRoutes } from '../storage/storage.route.js';
import type { Services } from '../services/index.js';
import { registerConvertRoutes } from './convert.route.js';
import { registerEventRoutes } from './events.route.js';
import { registerExportRoutes } from './export.route.js';
import { registerAdminRoutes } from './admin.route.js';
import { registerHealthRoutes } from './health.route.js';
import { registerJobStreamRoutes } from './job-stream.route.js';
import { registerJobRoutes } from './jobs.route.js';
import { registerListRoutes } from './lists.route.js';
import { registerMeRoutes } from './me.route.js';
import { registerOpenApiRoutes } from './openapi.route.js';
import { registerSectionRoutes } from './sections.route.js';
import { registerUploadRoutes } from './upload.route.js';

/** Every /api route; the access-matrix test reads the resulting route table from the server. */
export async function registerRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  services: Services,
): Promise<void> {
  registerHealthRoutes(app, ctx);
  await registerAuthRoutes(app, ctx, services);
  await registerStorageRoutes(app, ctx.store, { uploadsPerMinute: ctx.config.uploadsPerMinute });
  registerMeRoutes(app, services);
  registerUploadRoutes(app, services);
  registerConvertRoutes(app, services);
  registerJobRoutes(app, services);
  registerSectionRoutes(app, services);
  registerJobStreamRoutes(app, services);
  await registerEventRoutes(app, services);
  registerExportRoutes(app, services);
  registerListRoutes(app, services);
  registerAdminRoutes(app, services);
  registerOpenApiRoutes(app);
}
