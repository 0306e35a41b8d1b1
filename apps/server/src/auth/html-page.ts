/**
 * Small server-rendered pages for the sign-in flow (development sign-in form, sign-in errors).
 * They must work under the app's content security policy: no script at all, one inline style
 * block (style-src allows 'unsafe-inline'), forms that post to this origin only.
 */

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f4f5; color: #18181b; }
  main { width: min(26rem, calc(100vw - 2rem)); background: #fff; border-radius: 12px; padding: 2rem; box-shadow: 0 1px 3px rgb(0 0 0 / 0.15); }
  h1 { margin: 0 0 0.5rem; font-size: 1.5rem; }
  p { line-height: 1.5; }
  .badge { display: inline-block; margin: 0 0 1rem; padding: 0.15rem 0.6rem; border-radius: 999px; background: #fef3c7; color: #92400e; font-size: 0.8rem; font-weight: 600; }
  label { display: block; margin: 1rem 0 0.25rem; font-weight: 600; }
  input { box-sizing: border-box; width: 100%; padding: 0.6rem; font: inherit; border: 1px solid #a1a1aa; border-radius: 6px; }
  input[aria-invalid="true"] { border-color: #b91c1c; }
  .error { margin: 0.35rem 0 0; color: #b91c1c; font-size: 0.9rem; }
  .actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
  button, .button { padding: 0.6rem 1.2rem; font: inherit; font-weight: 600; border-radius: 6px; border: 0; background: #1d4ed8; color: #fff; cursor: pointer; text-decoration: none; }
  button.secondary { background: #e4e4e7; color: #18181b; }
  @media (prefers-color-scheme: dark) {
    body { background: #18181b; color: #f4f4f5; }
    main { background: #27272a; }
    input { background: #18181b; color: inherit; }
    button.secondary { background: #3f3f46; color: #f4f4f5; }
  }
`;

/** A complete HTML document; `body` must already be escaped. */
export function htmlDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** A page that explains why a sign-in stopped and links back to a place to start again. */
export function signInErrorPage(message: string, link: { href: string; label: string }): string {
  return htmlDocument(
    'Sign-in failed · Riffscribe',
    `<h1>Sign-in failed</h1>
<p role="alert">${escapeHtml(message)}</p>
<p><a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`,
  );
}
