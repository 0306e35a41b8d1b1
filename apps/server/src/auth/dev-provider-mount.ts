import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DevProvider } from './dev-provider.js';
import { registerDevInteractionRoutes } from './dev-interaction.routes.js';

/** Node's request as Express-style mounts leave it: `originalUrl` keeps the full path. */
type MountedRequest = IncomingMessage & { originalUrl?: string };

/** The HTTP methods oidc-provider answers on its endpoints. */
const PROVIDER_METHODS = ['GET', 'POST', 'OPTIONS'] as const;

/**
 * Serves the development provider under `/oidc` of this Fastify server.
 *
 * oidc-provider is a Koa application. Mounted like Express does it, it routes on `req.url` with
 * the prefix stripped and rebuilds its own absolute URLs from `req.originalUrl` (the part before
 * the stripped URL is the mount path), while the issuer `${publicUrl}/oidc` names the same path.
 * So for every `/oidc/*` request: keep the full URL in `originalUrl`, strip the prefix from
 * `url`, hand the raw Node request and response to the provider, and restore `url` afterwards
 * (Fastify's own logging reads it).
 *
 * The route lives in its own encapsulated plugin whose only content-type parser passes bodies
 * through untouched: oidc-provider reads POST bodies (token endpoint, forms) from the raw stream
 * itself. The sign-in page at `/oidc/interaction/:uid` is a plain Fastify route (more specific,
 * so the router prefers it over the wildcard). Helmet's headers are set on the raw response in
 * an onRequest hook, so the provider's answers carry the same content security policy; its
 * pages (ours: sign-in form and errors) need no script, so nothing is relaxed.
 */
export async function mountDevProvider(app: FastifyInstance, dev: DevProvider): Promise<void> {
  const handle = dev.provider.callback();
  const prefix = dev.mountPath;

  await app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, passThrough) => {
      passThrough(null);
    });
    scope.route({
      method: [...PROVIDER_METHODS],
      url: `${prefix}/*`,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        reply.hijack();
        const raw: MountedRequest = request.raw;
        const original = raw.url ?? prefix;
        raw.originalUrl = original;
        raw.url = original.slice(prefix.length) || '/';
        try {
          await handle(raw, reply.raw);
        } finally {
          raw.url = original;
        }
      },
    });
    done();
  });

  await app.register((scope, _options, done) => {
    registerDevInteractionRoutes(scope, dev);
    done();
  });
}
