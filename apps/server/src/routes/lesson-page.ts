import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../auth/html-page.js';
import type { Services } from '../services/index.js';

const LESSON_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * GET /lesson/:jobId: the web app's page with link-preview tags (Open Graph and Twitter card:
 * the lesson's name, its owner and its picture) when the lesson is shared, so a link pasted into
 * a chat shows what it opens. Private or unknown lessons get the plain page: a preview must not
 * tell them apart. The app itself then loads as on any other route.
 */
export function registerLessonPage(
  app: FastifyInstance,
  services: Services,
  options: { webDist: string; publicUrl: string },
): void {
  const page = readFileSync(path.join(options.webDist, 'index.html'), 'utf8');
  const base = options.publicUrl.replace(/\/$/, '');
  app.get<{ Params: { jobId: string } }>('/lesson/:jobId', async (request, reply) => {
    const { jobId } = request.params;
    const preview = LESSON_ID.test(jobId) ? await services.jobs.preview(jobId) : null;
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    if (!preview) return reply.send(page);
    const title = `${preview.name} – guitar tab lesson on Riffscribe`;
    const description = `${
      preview.ownerUsername ? `Played by @${preview.ownerUsername}. ` : ''
    }Notes, chords and techniques as an animated tab synced to the video: watch, loop and slow it down.`;
    const url = `${base}/lesson/${jobId}`;
    const tags = [
      ['og:type', 'website'],
      ['og:site_name', 'Riffscribe'],
      ['og:title', title],
      ['og:description', description],
      ['og:url', url],
      ...(preview.hasThumbnail
        ? [['og:image', `${base}/api/lesson-thumbnail?jobId=${jobId}`]]
        : []),
    ]
      .map(
        ([property, content]) =>
          `<meta property="${property}" content="${escapeHtml(content ?? '')}" />`,
      )
      .concat(
        `<meta name="twitter:card" content="${preview.hasThumbnail ? 'summary_large_image' : 'summary'}" />`,
        `<link rel="canonical" href="${escapeHtml(url)}" />`,
      )
      .join('\n    ');
    const html = page
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
      .replace(
        /<meta\s+name="description"[^>]*>/,
        `<meta name="description" content="${escapeHtml(description)}" />`,
      )
      .replace('</head>', `    ${tags}\n  </head>`);
    return reply.send(html);
  });
}
