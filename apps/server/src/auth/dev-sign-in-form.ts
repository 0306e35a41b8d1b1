import { escapeHtml, htmlDocument } from './html-page.js';

/** The development sign-in form's fields, as typed (trimmed), and a message per invalid field. */
export interface DevSignInInput {
  email: string;
  name: string;
}

export type DevSignInErrors = Partial<Record<keyof DevSignInInput, string>>;

export const INVALID_EMAIL = 'Please enter a valid e-mail address, like player@example.com.';
export const MISSING_NAME = 'Please enter your name.';
export const NAME_TOO_LONG = 'Please keep your name under 80 characters.';

/** Deliberately simple: one @, a dot in the domain, no spaces; 254 is the SMTP path limit. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const MAX_EMAIL = 254;
const MAX_NAME = 80;
// eslint-disable-next-line no-control-regex -- control characters are what this rejects
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Checks the form. On success the e-mail is lower-cased: it becomes the account id (and `sub`),
 * so the same address always signs in as the same person whatever its capitalisation.
 */
export function validateDevSignIn(
  input: DevSignInInput,
): { ok: true; value: DevSignInInput } | { ok: false; errors: DevSignInErrors } {
  const email = input.email.trim();
  const name = input.name.trim();
  const errors: DevSignInErrors = {};
  if (email.length > MAX_EMAIL || !EMAIL.test(email) || CONTROL.test(email)) {
    errors.email = INVALID_EMAIL;
  }
  if (name === '') errors.name = MISSING_NAME;
  else if (name.length > MAX_NAME || CONTROL.test(name)) errors.name = NAME_TOO_LONG;
  if (errors.email !== undefined || errors.name !== undefined) return { ok: false, errors };
  return { ok: true, value: { email: email.toLowerCase(), name } };
}

function field(
  id: keyof DevSignInInput,
  label: string,
  type: string,
  autocomplete: string,
  value: string,
  error: string | undefined,
  autofocus: boolean,
): string {
  const invalid = error === undefined ? '' : ` aria-invalid="true" aria-describedby="${id}-error"`;
  const message =
    error === undefined ? '' : `\n<p class="error" id="${id}-error">${escapeHtml(error)}</p>`;
  return `<label for="${id}">${label}</label>
<input id="${id}" name="${id}" type="${type}" autocomplete="${autocomplete}" required value="${escapeHtml(value)}"${invalid}${autofocus ? ' autofocus' : ''}>${message}`;
}

/**
 * The development sign-in page: says plainly that it is a development sign-in with no password,
 * asks for an e-mail and a name, and posts back to `action` (same origin; no script).
 */
export function renderDevSignInPage(
  action: string,
  input: DevSignInInput = { email: '', name: '' },
  errors: DevSignInErrors = {},
): string {
  const focusName = errors.email === undefined && errors.name !== undefined;
  return htmlDocument(
    'Development sign-in · Riffscribe',
    `<p class="badge">Development only</p>
<h1>Development sign-in</h1>
<p>This is Riffscribe's built-in development identity provider. No password is checked: it is for
local use only and is switched off in production. Type any e-mail address to sign in as that
person; the same address always gives the same account.</p>
<form method="post" action="${escapeHtml(action)}">
${field('email', 'E-mail', 'email', 'email', input.email, errors.email, !focusName)}
${field('name', 'Name', 'text', 'name', input.name, errors.name, focusName)}
<div class="actions">
<button type="submit" name="action" value="sign-in">Sign in</button>
<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>Cancel</button>
</div>
</form>`,
  );
}
