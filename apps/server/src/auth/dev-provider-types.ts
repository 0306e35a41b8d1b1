import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The part of oidc-provider 9 that the development provider uses, typed by hand: the package
 * ships no type declarations, and these few shapes are all we touch. Keep them in step with
 * https://github.com/panva/node-oidc-provider/blob/main/docs/README.md when upgrading.
 */

/** What an adapter stores for one provider artefact (session, code, grant, interaction...). */
export interface AdapterPayload {
  grantId?: string;
  userCode?: string;
  uid?: string;
  consumed?: number;
  [claim: string]: unknown;
}

/** oidc-provider's storage interface; one instance per model name. */
export interface ProviderAdapter {
  upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
  find(id: string): Promise<AdapterPayload | undefined>;
  findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
  findByUid(uid: string): Promise<AdapterPayload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

export type ProviderAdapterConstructor = new (modelName: string) => ProviderAdapter;

/** The Koa context oidc-provider hands to configuration callbacks (only what we read or set). */
export interface ProviderContext {
  type: string;
  body: unknown;
  status: number;
}

/** The account an accountId stands for; `claims` answers the ID token's claims. */
export interface ProviderAccount {
  accountId: string;
  claims(): Promise<Record<string, unknown>>;
}

export interface ProviderClientMetadata {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  response_types: string[];
  grant_types: string[];
  token_endpoint_auth_method: string;
  id_token_signed_response_alg: string;
}

export interface ProviderCookieOptions {
  httpOnly: boolean;
  sameSite: 'lax' | 'strict' | 'none';
  path?: string;
}

/** The configuration keys we set; everything else keeps oidc-provider's defaults. */
export interface ProviderConfiguration {
  adapter: ProviderAdapterConstructor;
  clients: ProviderClientMetadata[];
  jwks: { keys: Record<string, string>[] };
  cookies: {
    keys: string[];
    names: { session: string; interaction: string; resume: string };
    long: ProviderCookieOptions;
    short: ProviderCookieOptions;
  };
  scopes: string[];
  claims: Record<string, string[]>;
  conformIdTokenClaims: boolean;
  responseTypes: string[];
  pkce: { required: () => boolean };
  features: Record<string, { enabled: boolean }>;
  interactions: { url: (ctx: ProviderContext, interaction: { uid: string }) => string };
  findAccount: (ctx: ProviderContext, accountId: string) => Promise<ProviderAccount | undefined>;
  renderError: (
    ctx: ProviderContext,
    out: { error?: string; error_description?: string },
    error: unknown,
  ) => Promise<void>;
  clientBasedCORS: () => boolean;
  ttl: Record<string, number>;
}

/** One pending sign-in at the provider, as `interactionDetails` returns it. */
export interface InteractionDetails {
  uid: string;
  prompt: { name: string; reasons: string[] };
  params: Record<string, unknown>;
  /** The provider session the sign-in started in, when somebody was already signed in there. */
  session?: { accountId?: string; uid?: string } | undefined;
  /** Saves changes to the interaction for the rest of its lifetime. */
  persist(): Promise<unknown>;
}

/** What an interaction ends with: a signed-in account and the consent it gave, or an error. */
export type InteractionResult =
  | { login: { accountId: string }; consent: { grantId: string } }
  | { error: string; error_description: string };

export interface ProviderGrant {
  addOIDCScope(scope: string): void;
  save(): Promise<string>;
}

export interface ProviderSession {
  destroy(): Promise<void>;
}

export interface OidcProvider {
  readonly issuer: string;
  /** Koa's trust-proxy switch (X-Forwarded-*). */
  proxy: boolean;
  Grant: new (properties: { accountId: string; clientId: string }) => ProviderGrant;
  Session: { findByUid(uid: string): Promise<ProviderSession | undefined> };
  callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
  interactionResult(
    req: IncomingMessage,
    res: ServerResponse,
    result: InteractionResult,
    options: { mergeWithLastSubmission: boolean },
  ): Promise<string>;
  /** Provider events pass (ctx, error); Koa's own 'error' event passes (error, ctx). */
  on(event: string, listener: (...args: unknown[]) => void): this;
}

export type ProviderConstructor = new (
  issuer: string,
  configuration: ProviderConfiguration,
) => OidcProvider;
