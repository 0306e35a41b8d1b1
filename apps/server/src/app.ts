import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import { SESSION_COOKIE } from './auth/cookies.js';
import { LiveSessionBudgets } from './auth/live-session-budgets.js';
import { SessionsRepository } from './auth/sessions.repository.js';
import { AppError, badRequest, isDatabaseOutage } from './errors.js';
import { CONTROL_CHARACTERS, hasControlCharacters } from './routes/control-characters.js';
import { editsPool, exportPool } from './services/worker-pool.js';
import { validationSentenceOf } from './validation-sentence.js';
import { registerLessonPage } from './routes/lesson-page.js';
import type { AppContext } from './context.js';
import type { RateBudget } from './config.js';
import { registerAuthentication, requiresSignIn } from './auth/authenticate.js';
import { loggerOptions } from './observability/logging.js';
import { Metrics } from './observability/metrics.js';
import { registerMetricsRoute } from './routes/metrics.route.js';
import { registerOpenApi } from './routes/openapi.route.js';
import { registerRoutes } from './routes/index.js';
import { createServices, type Services } from './services/index.js';

export type App = FastifyInstance;

export interface RouteEntry {
  method: string;
  url: string;
  /** Sign-in is required, and checked before the body is read (auth/authenticate.ts). */
  signedIn: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app registered (HEAD routes Fastify adds itself excluded). */
    routeTable: RouteEntry[];
    /** Prometheus metrics of this process (GET /metrics); the embedded worker reports to it. */
    metrics: Metrics;
  }
}

export interface BuildAppOptions {
  /** Logger options instead of the server's own (tests: false). */
  logger?: FastifyServerOptions['logger'];
  /** Where the server's own logger writes (default stdout); tests capture the log with it. */
  logStream?: DestinationStream;
  /** Extra route registrations that need the services (auth, storage, tests). */
  plugins?: ((app: FastifyInstance, services: Services) => Promise<void> | void)[];
  /** The metrics registry (default: a new one reading job counts from the app's database). */
  metrics?: Metrics;
}

const isJsonBody = (type: string | undefined) => type?.toLowerCase().includes('json') === true;

const GENERIC_FAULT = 'Something went wrong on our side. Please try again.';
const OUTAGE_SENTENCE = 'The service is briefly unavailable. Please try again in a moment.';
/** What a 503 asks a client to wait before trying again. */
const OUTAGE_RETRY_SECONDS = 15;

/** A readable sentence from a validation failure; messages written for users pass unchanged. */
function validationSentence(error: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(error)) return validationSentenceOf(error.validation);
  return 'The request is not valid.';
}

/**
 * Builds the HTTP application: security headers, rate limits, body limits, authentication, the
 * /api routes, the built web app, and one error handler that answers `{ error }` JSON.
 */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? {
      ...loggerOptions(ctx.config.logLevel),
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    genReqId: () => randomUUID(),
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: 1024 * 1024,
    trustProxy: ctx.config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method !== 'HEAD') {
        routeTable.push({ method, url: route.url, signedIn: requiresSignIn(route) });
      }
    }
  });
  // Every route: no control character in a path, a query or a JSON string (issue 38 row 2).
  app.addHook('preValidation', (request, _reply, done) => {
    if (
      hasControlCharacters(request.params) ||
      hasControlCharacters(request.query) ||
      (isJsonBody(request.headers['content-type']) && hasControlCharacters(request.body))
    ) {
      done(badRequest(CONTROL_CHARACTERS));
      return;
    }
    done();
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  const metrics = options.metrics ?? new Metrics({ database: ctx.database });
  app.decorate('metrics', metrics);
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requestFinished(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      // Busy or stopping: a client may ask again shortly.
      if (error.status === 503) reply.header('retry-after', String(OUTAGE_RETRY_SECONDS));
      return reply.status(error.status).send({ error: error.message });
    }
    if (error.validation) {
      return reply.status(400).send({ error: validationSentence(error) });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ error: error.message });
    if (status === 413) {
      return reply.status(413).send({ error: 'The request body is too large.' });
    }
    if (status === 415) {
      return reply.status(415).send({ error: 'This content type is not accepted here.' });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ error: 'The request is not valid.' });
    }
    if (isDatabaseOutage(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(OUTAGE_RETRY_SECONDS))
        .send({ error: OUTAGE_SENTENCE });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: GENERIC_FAULT });
  });

  await app.register(cookie);
  const https = ctx.config.publicUrl.startsWith('https:');
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', ...ctx.config.storageOrigins],
        'media-src': ["'self'", 'blob:', ...ctx.config.storageOrigins],
        // The synth's clock (Tone.js) runs in a worker it creates from a blob: URL.
        'worker-src': ["'self'", 'blob:'],
        'connect-src': ["'self'", ...ctx.config.storageOrigins],
        'form-action': ["'self'", ...ctx.config.identityOrigins],
        'frame-ancestors': ["'none'"],
        'upgrade-insecure-requests': https ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // Over plain http (embedded mode, a LAN) these would send browsers to an https that is not
    // there; behind TLS (PUBLIC_URL https) they are on.
    ...(https ? {} : { strictTransportSecurity: false }),
  });
  const sessionBudgets = new LiveSessionBudgets(new SessionsRepository(ctx.database.db));
  await app.register(rateLimit, {
    // Runs after authentication (a route's own hook), so a signed-in caller is counted as
    // themselves, wherever they call from; anonymous callers by address.
    keyGenerator: async (request) => {
      const budget = rateBudget(request.method, request.url);
      // Token renewal comes with the session cookie and no bearer: counted per session, so a
      // noisy client behind a shared address does not lock the people behind it out. Only a
      // live session's cookie has a budget of its own (made-up cookies share the address's).
      const cookie =
        request.user === null && budget === 'auth' ? request.cookies[SESSION_COOKIE] : undefined;
      const session = cookie ? await sessionBudgets.liveSession(cookie) : null;
      const who = request.user
        ? `user:${request.user.uid}`
        : session
          ? `session:${session}`
          : `ip:${request.ip}`;
      // Renewals and the sign-in flow are counted apart: junk renewals from an address do not
      // stop someone there from signing in.
      const group =
        budget === 'auth' && request.url.startsWith('/api/auth/token') ? 'token' : budget;
      return `${group}|${who}`;
    },
    max: (request) => ctx.config.rateLimits[rateBudget(request.method, request.url)],
    timeWindow: '1 minute',
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: `Too many requests. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
      message: `Too many requests. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
    }),
  });

  // The worker pools' threads end with the server (each starts again on its next task).
  app.addHook('onClose', async () => {
    await Promise.all([exportPool.close(), editsPool.close()]);
  });
  app.decorateRequest('user', null);
  // Before any route, so that the OpenAPI document sees them all.
  await registerOpenApi(app);
  const services = createServices(ctx);
  registerAuthentication(app, ctx);
  for (const plugin of options.plugins ?? []) await plugin(app, services);
  await registerRoutes(app, ctx, services);
  registerMetricsRoute(app, metrics, ctx.config);

  const webDist = ctx.config.webDistDir;
  const serveWeb = ctx.config.serveWeb && existsSync(path.join(webDist, 'index.html'));
  if (serveWeb) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: 'index.html' });
    registerLessonPage(app, services, { webDist, publicUrl: ctx.config.publicUrl });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (serveWeb && request.method === 'GET' && !url.startsWith('/api/')) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ error: 'Not found.' });
  });
  return app;
}

/** Which rate-limit budget a request draws on. */
export function rateBudget(method: string, url: string): RateBudget {
  if (url.startsWith('/api/auth/') || url.startsWith('/oidc')) return 'auth';
  if (!url.startsWith('/api/')) return 'static';
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}
