import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DevProvider } from './dev-provider.js';
import type { InteractionDetails } from './dev-provider-types.js';
import { SIGN_IN_SCOPE } from './auth-constants.js';
import { renderDevSignInPage, validateDevSignIn } from './dev-sign-in-form.js';
import { signInErrorPage } from './html-page.js';

/** Form posts are tiny: two short fields and a button. */
const FORM_BODY_LIMIT = 16 * 1024;

const EXPIRED =
  'This sign-in attempt has expired or is not valid any more. Go back to Riffscribe and sign in again.';

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(html);
}

function formField(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

function uidParam(request: FastifyRequest): string {
  const params = request.params as Record<string, string | undefined>;
  return params.uid ?? '';
}

/**
 * GET and POST `/oidc/interaction/:uid` (`scope` must be an encapsulated plugin: it replaces
 * the content-type parsers with a form parser): the development sign-in page.
 *
 * GET shows the form when the provider asks for a login (with prompt=login it always does); a
 * pending consent alone is granted at once. POST validates the e-mail and name, then completes
 * login AND consent in one step (a Grant for openid email profile), so the browser goes straight
 * back through the provider to our callback. "Cancel" ends the sign-in with access_denied.
 *
 * The interaction is found through the provider's own signed, path-scoped cookie; the uid in the
 * URL must match it, which ties the form to the browser that started the sign-in.
 */
export function registerDevInteractionRoutes(scope: FastifyInstance, dev: DevProvider): void {
  const { provider } = dev;
  const home = `${new URL(provider.issuer).origin}/`;
  const back = { href: home, label: 'Back to Riffscribe' };
  const route = `${dev.mountPath}/interaction/:uid`;

  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  /** The pending interaction for this browser, or null when it is gone or not this one. */
  const pending = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      return details.uid === uidParam(request) ? details : null;
    } catch (error) {
      request.log.info(
        { reason: error instanceof Error ? error.message : 'unknown' },
        'development sign-in: no pending interaction',
      );
      return null;
    }
  };

  /** Finishes the interaction as `accountId` with consent to our scopes; 303 back to the provider. */
  const finish = async (
    request: FastifyRequest,
    reply: FastifyReply,
    details: InteractionDetails,
    accountId: string,
  ) => {
    const clientId = details.params.client_id;
    if (typeof clientId !== 'string') return sendHtml(reply, 400, signInErrorPage(EXPIRED, back));
    const grant = new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(SIGN_IN_SCOPE);
    const grantId = await grant.save();
    const returnTo = await provider.interactionResult(
      request.raw,
      reply.raw,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
  };

  /**
   * Every development sign-in starts a fresh provider session. Left alone, signing in as another
   * address in the same browser would make the provider first end the old session through an
   * auto-submitting page with inline script, which our CSP blocks (and which adds nothing here).
   */
  const forgetProviderSession = async (details: InteractionDetails) => {
    if (details.session === undefined) return;
    const uid = details.session.uid;
    const previous = uid === undefined ? undefined : await provider.Session.findByUid(uid);
    await previous?.destroy();
    details.session = undefined;
    await details.persist();
  };

  scope.get(route, async (request, reply) => {
    const details = await pending(request, reply);
    if (!details) return sendHtml(reply, 400, signInErrorPage(EXPIRED, back));
    const accountId = details.session?.accountId;
    if (details.prompt.name === 'consent' && accountId !== undefined) {
      return finish(request, reply, details, accountId);
    }
    return sendHtml(reply, 200, renderDevSignInPage(dev.interactionPath(details.uid)));
  });

  scope.post(route, async (request, reply) => {
    const details = await pending(request, reply);
    if (!details) return sendHtml(reply, 400, signInErrorPage(EXPIRED, back));
    if (formField(request.body, 'action') === 'cancel') {
      const returnTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        { error: 'access_denied', error_description: 'The sign-in was cancelled.' },
        { mergeWithLastSubmission: false },
      );
      return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
    }
    const input = {
      email: formField(request.body, 'email'),
      name: formField(request.body, 'name'),
    };
    const checked = validateDevSignIn(input);
    if (!checked.ok) {
      const page = renderDevSignInPage(dev.interactionPath(details.uid), input, checked.errors);
      return sendHtml(reply, 400, page);
    }
    dev.rememberName(checked.value.email, checked.value.name);
    await forgetProviderSession(details);
    return finish(request, reply, details, checked.value.email);
  });
}
