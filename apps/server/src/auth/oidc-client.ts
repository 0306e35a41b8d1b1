import * as client from 'openid-client';
import type { Config } from '../config.js';
import { CALLBACK_PATH, devProviderIssuer, SIGN_IN_SCOPE } from './auth-constants.js';

/** What the browser must bring back to the callback; kept in the transaction cookie. */
export interface SignInTransaction {
  state: string;
  nonce: string;
  /** PKCE code verifier (43+ characters of base64url). */
  verifier: string;
  /** Same-site path to land on after sign-in (already checked by safeReturnTo). */
  returnTo: string;
}

/** A person as the ID token describes them, after every check passed. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  name: string | null;
}

/** Why a callback was refused; `reason` is for the log, `message` for the person. */
export class SignInRejected extends Error {
  constructor(
    message: string,
    readonly reason: string,
    readonly status: 400 | 502 = 400,
  ) {
    super(message);
    this.name = 'SignInRejected';
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Lets openid-client talk plain http. The library marks it deprecated only so that it stands out;
 * we apply it to loopback issuers alone (the development provider, a local test IdP). Discovery
 * recognises the function itself in `execute`, so it is passed as is, not wrapped.
 */
function allowHttp(): client.DiscoveryRequestOptions {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- see the comment above
  return { execute: [client.allowInsecureRequests] };
}

/**
 * The OpenID Connect relying party (openid-client 6): the configured issuer, or the built-in
 * development provider at `${publicUrl}/oidc` when none is configured.
 *
 * Discovery runs on first use and is cached; a failed discovery is forgotten so the next sign-in
 * tries again. Plain-http issuers are accepted only on loopback hosts (the development provider,
 * a local Keycloak...). The client authenticates with client_secret_post when the issuer offers
 * it (our development provider does; the bearer-token hook owns the Authorization header on this
 * server), else client_secret_basic.
 */
export class RelyingParty {
  readonly issuer: string;
  readonly devProvider: boolean;
  readonly redirectUri: string;
  private discovered: Promise<client.Configuration> | null = null;

  constructor(private readonly config: Pick<Config, 'publicUrl' | 'oidc'>) {
    this.devProvider = config.oidc.issuer === null;
    this.issuer = config.oidc.issuer ?? devProviderIssuer(config.publicUrl);
    this.redirectUri = `${config.publicUrl}${CALLBACK_PATH}`;
  }

  /** The discovered configuration (cached). Rejects when the issuer cannot be reached. */
  configuration(): Promise<client.Configuration> {
    this.discovered ??= this.discover().catch((error: unknown) => {
      this.discovered = null;
      throw error;
    });
    return this.discovered;
  }

  private async discover(): Promise<client.Configuration> {
    const url = new URL(this.issuer);
    const insecure = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
    const { clientId, clientSecret } = this.config.oidc;
    const metadata: Partial<client.ClientMetadata> = { client_secret: clientSecret };
    // Our provider signs with ES256; pin it rather than accept any advertised algorithm.
    if (this.devProvider) metadata.id_token_signed_response_alg = 'ES256';
    const options: client.DiscoveryRequestOptions = insecure ? allowHttp() : {};
    const found = await client.discovery(url, clientId, metadata, undefined, options);
    const methods = found.serverMetadata().token_endpoint_auth_methods_supported;
    if (methods === undefined || methods.includes('client_secret_post')) return found;
    const basic = new client.Configuration(
      found.serverMetadata(),
      clientId,
      metadata,
      client.ClientSecretBasic(clientSecret),
    );
    for (const apply of options.execute ?? []) apply(basic);
    return basic;
  }

  /** Starts a sign-in: fresh state, nonce and PKCE verifier, and the authorization URL. */
  async begin(returnTo: string): Promise<{ url: URL; transaction: SignInTransaction }> {
    const configuration = await this.configuration();
    const transaction: SignInTransaction = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      returnTo,
    };
    const parameters: Record<string, string> = {
      redirect_uri: this.redirectUri,
      scope: SIGN_IN_SCOPE,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(transaction.verifier),
      code_challenge_method: 'S256',
      state: transaction.state,
      nonce: transaction.nonce,
    };
    // The development sign-in asks every time, so that a developer can switch test accounts.
    if (this.devProvider) parameters.prompt = 'login';
    return { url: client.buildAuthorizationUrl(configuration, parameters), transaction };
  }

  /**
   * Completes a sign-in from the callback URL: checks state, exchanges the code with the PKCE
   * verifier, verifies the ID token (signature, issuer, audience, expiry, nonce) and reads the
   * identity from it. Every failure is a SignInRejected.
   */
  async complete(callbackUrl: URL, transaction: SignInTransaction): Promise<VerifiedIdentity> {
    const configuration = await this.configuration().catch((error: unknown) => {
      throw new SignInRejected(UNREACHABLE, reasonOf(error), 502);
    });
    let claims: client.IDToken | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        pkceCodeVerifier: transaction.verifier,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      throw rejection(error);
    }
    if (!claims) throw new SignInRejected(NOT_VERIFIED, 'no ID token');
    const email = claims.email;
    if (typeof email !== 'string' || email === '') {
      throw new SignInRejected(
        'Your identity provider did not share an e-mail address, which Riffscribe needs to sign you in.',
        'ID token without email',
      );
    }
    if (claims.email_verified === false) {
      throw new SignInRejected(
        'Your identity provider says this e-mail address is not verified yet. Verify it there and sign in again.',
        'email_verified is false',
      );
    }
    const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name : null;
    return { issuer: configuration.serverMetadata().issuer, subject: claims.sub, email, name };
  }
}

const UNREACHABLE = 'The identity provider could not be reached. Please try again in a moment.';
const MISCONFIGURED =
  'Sign-in is not set up correctly on this server. Please try again later or contact support.';
const NOT_VERIFIED =
  'We could not verify this sign-in: it does not match the sign-in you started. Please sign in again.';

/** Turns an openid-client failure into a sentence for the person and a reason for the log. */
function rejection(error: unknown): SignInRejected {
  if (error instanceof client.AuthorizationResponseError) {
    const denied = error.error === 'access_denied';
    return new SignInRejected(
      denied
        ? 'The sign-in was cancelled at the identity provider.'
        : 'The identity provider could not sign you in. Please try again.',
      `authorization response error: ${error.error}`,
    );
  }
  if (error instanceof client.ResponseBodyError) {
    const reason = `token endpoint error: ${error.error}`;
    // invalid_grant: the code is unknown, used or expired, or the PKCE verifier does not match.
    if (error.error === 'invalid_grant') {
      return new SignInRejected(
        'This sign-in link has already been used or has expired. Please sign in again.',
        reason,
      );
    }
    // Anything else (invalid_client...) is this server's set-up, not the person's doing.
    return new SignInRejected(MISCONFIGURED, reason, 502);
  }
  if (error instanceof client.ClientError) {
    return new SignInRejected(NOT_VERIFIED, `${error.code ?? 'client error'}: ${error.message}`);
  }
  return new SignInRejected(UNREACHABLE, reasonOf(error), 502);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : 'unknown failure';
}
