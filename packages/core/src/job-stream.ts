/**
 * The job status stream (GET /api/job-status-stream, server-sent events): its path and a parser
 * for the text/event-stream format, shared by the web app (which reads it with fetch, because
 * EventSource cannot send the bearer token) and the tests.
 */

/** Path of the stream for a job; authorised like check-status. */
export const jobStatusStreamPath = (jobId: string): string =>
  `/api/job-status-stream?jobId=${encodeURIComponent(jobId)}`;

/** One event of the stream: `status` (a CheckStatusResponse) or `end` (the final one). */
export interface StreamEvent {
  event: string;
  data: string;
}

/**
 * An incremental text/event-stream parser: `push` text as it arrives, in pieces of any size; each
 * complete event (ended by a blank line) goes to `onEvent`. Comments (lines starting with ':'),
 * `id` and `retry` fields are skipped; several `data` lines are joined with newlines.
 */
export function createStreamParser(onEvent: (event: StreamEvent) => void): (text: string) => void {
  let pending = '';
  let event = '';
  let data: string[] = [];
  return (text) => {
    pending += text;
    // A '\r' at the very end may be the first half of a '\r\n': wait for the next piece.
    const held = pending.endsWith('\r') ? 1 : 0;
    const lines = pending.slice(0, pending.length - held).split(/\r\n|\r|\n/);
    // The last piece is an incomplete line.
    pending = (lines.pop() ?? '') + (held ? '\r' : '');
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n') });
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
  };
}
