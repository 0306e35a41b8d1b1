import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import {
  CALLBACK_PATH,
  DEV_PROVIDER_MOUNT,
  devProviderIssuer,
  SIGN_IN_SCOPE,
} from './auth-constants.js';
import { createMemoryAdapter } from './dev-provider-adapter.js';
import { deriveCookieKey, deriveSigningJwk } from './dev-provider-keys.js';
import type {
  OidcProvider,
  ProviderConfiguration,
  ProviderConstructor,
  ProviderContext,
} from './dev-provider-types.js';
import { signInErrorPage } from './html-page.js';

export type DevProviderConfig = Pick<
  Config,
  'nodeEnv' | 'publicUrl' | 'secret' | 'oidc' | 'trustProxy'
>;

/** The built-in development identity provider, ready to be mounted (dev-provider-mount.ts). */
export interface DevProvider {
  readonly provider: OidcProvider;
  readonly issuer: string;
  /** The path prefix it is served under, `/oidc`. */
  readonly mountPath: string;
  /** Path of the sign-in page for one interaction. */
  interactionPath(uid: string): string;
  /** Remembers the display name typed on the sign-in page; the ID token's `name` claim. */
  rememberName(accountId: string, name: string): void;
}

export const DEV_PROVIDER_IN_PRODUCTION =
  'The built-in development sign-in cannot run when NODE_ENV=production: it checks no password. ' +
  'Set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET to use a real identity provider.';

/** The development provider keeps at most this many display names (oldest forgotten first). */
const MAX_REMEMBERED_NAMES = 1000;

/** Provider-side lifetimes, seconds. Short: this provider only exists to hand us an ID token. */
const TTL = {
  AccessToken: 10 * 60,
  AuthorizationCode: 60,
  IdToken: 10 * 60,
  Interaction: 30 * 60,
  Session: 24 * 60 * 60,
  Grant: 24 * 60 * 60,
};

// Kept in a variable so that TypeScript does not look for the (absent) type declarations; the
// module is typed by dev-provider-types.ts instead.
const OIDC_PROVIDER_MODULE = 'oidc-provider';
const UNSUPPORTED_RUNTIME = 'oidc-provider WARNING: Unsupported runtime';

/**
 * Loads oidc-provider on first use, so that a server with a real issuer never loads it.
 *
 * The package warns at import time on any Node.js older than 22 LTS. We run on Node 20 on
 * purpose (docs: DESIGN, "Node") and the provider only serves local development, so exactly that
 * one line is filtered out while the module loads; every other warning still prints.
 */
async function loadProvider(): Promise<ProviderConstructor> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes(UNSUPPORTED_RUNTIME)) return;
    warn(...args);
  };
  try {
    const loaded = (await import(OIDC_PROVIDER_MODULE)) as { default: ProviderConstructor };
    return loaded.default;
  } finally {
    console.warn = warn;
  }
}

/**
 * Builds the development OpenID provider (issuer `${publicUrl}/oidc`) with one client: ours.
 *
 * - Authorization code flow only, PKCE (S256) required, scopes openid email profile.
 * - The ID token carries `sub` (= lower-cased e-mail), `email`, `email_verified` and `name`, so the
 *   relying party needs no userinfo call (userinfo is off: our bearer-token hook owns the
 *   Authorization header on every route of this server).
 * - The client authenticates with client_secret_post for the same reason.
 * - Its cookies are named `rs_oidc_*` and signed with a key derived from the server secret.
 *
 * Refuses to run in production: it signs anybody in as any e-mail address.
 */
export async function createDevProvider(
  config: DevProviderConfig,
  log: FastifyBaseLogger,
): Promise<DevProvider> {
  if (config.nodeEnv === 'production') throw new Error(DEV_PROVIDER_IN_PRODUCTION);

  const issuer = devProviderIssuer(config.publicUrl);
  const names = new Map<string, string>();
  const interactionPath = (uid: string) =>
    `${DEV_PROVIDER_MOUNT}/interaction/${encodeURIComponent(uid)}`;

  const configuration: ProviderConfiguration = {
    adapter: createMemoryAdapter(),
    clients: [
      {
        client_id: config.oidc.clientId,
        client_secret: config.oidc.clientSecret,
        redirect_uris: [`${config.publicUrl}${CALLBACK_PATH}`],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
        id_token_signed_response_alg: 'ES256',
      },
    ],
    jwks: { keys: [await deriveSigningJwk(config.secret)] },
    cookies: {
      keys: [deriveCookieKey(config.secret)],
      names: {
        session: 'rs_oidc_session',
        interaction: 'rs_oidc_interaction',
        resume: 'rs_oidc_resume',
      },
      long: { httpOnly: true, sameSite: 'lax', path: DEV_PROVIDER_MOUNT },
      // No path here: the provider scopes these to the interaction and resume URLs itself.
      short: { httpOnly: true, sameSite: 'lax' },
    },
    scopes: SIGN_IN_SCOPE.split(' '),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      revocation: { enabled: false },
      introspection: { enabled: false },
    },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    findAccount: (_ctx, accountId) =>
      Promise.resolve({
        accountId,
        claims: () =>
          Promise.resolve({
            sub: accountId,
            email: accountId,
            // Nothing is verified here, but the address is the one the developer typed: the
            // relying party treats it like any other provider's verified e-mail.
            email_verified: true,
            name: names.get(accountId) ?? accountId.split('@')[0] ?? accountId,
          }),
      }),
    renderError: (ctx: ProviderContext, out) => {
      ctx.type = 'html';
      const reason = out.error_description ?? out.error ?? 'The sign-in request is not valid.';
      ctx.body = signInErrorPage(`Development sign-in: ${reason}`, {
        href: `${config.publicUrl}/`,
        label: 'Back to Riffscribe',
      });
      return Promise.resolve();
    },
    clientBasedCORS: () => false,
    ttl: TTL,
  };

  const Provider = await loadProvider();
  const provider = new Provider(issuer, configuration);
  provider.proxy = config.trustProxy;
  provider.on('server_error', (_ctx, error) => {
    log.error({ err: error }, 'development sign-in provider failed');
  });
  // Koa's own error event; with a listener attached Koa no longer prints to the console.
  provider.on('error', (error) => {
    log.error({ err: error }, 'development sign-in provider failed');
  });
  for (const event of ['authorization.error', 'grant.error', 'discovery.error', 'jwks.error']) {
    provider.on(event, (_ctx, error) => {
      log.info(
        { event, reason: error instanceof Error ? error.message : 'unknown' },
        'development sign-in refused a request',
      );
    });
  }

  return {
    provider,
    issuer,
    mountPath: DEV_PROVIDER_MOUNT,
    interactionPath,
    rememberName(accountId, name) {
      names.delete(accountId);
      names.set(accountId, name);
      if (names.size > MAX_REMEMBERED_NAMES) {
        const oldest = names.keys().next();
        if (oldest.done !== true) names.delete(oldest.value);
      }
    },
  };
}
