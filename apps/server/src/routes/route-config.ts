/**
 * Per-route options this server reads from `config` on a route. A route marked
 * `anonymous: true` is meant for callers without a sign-in (health, API description, metrics).
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    anonymous?: boolean;
  }
}

export {};
