import { describe, expect, it } from 'vitest';
import { createStreamParser, jobStatusStreamPath, type StreamEvent } from './job-stream.js';

function parseInPieces(text: string, size: number): StreamEvent[] {
  const events: StreamEvent[] = [];
  const push = createStreamParser((e) => events.push(e));
  for (let i = 0; i < text.length; i += size) push(text.slice(i, i + size));
  return events;
}

describe('job status stream parser', () => {
  const stream =
    ': keep-alive\n\n' +
    'id: 1\nevent: status\ndata: {"stage":"probing"}\n\n' +
    'id: 2\r\nevent: status\r\ndata: {"stage":"transcribing"}\r\n\r\n' +
    'event: end\ndata:{"status":\ndata: "completed"}\n\n' +
    'event: status\ndata: incomplete';

  it.each([1, 2, 3, 7, 1000])('gives the same events in pieces of %i characters', (size) => {
    expect(parseInPieces(stream, size)).toEqual([
      { event: 'status', data: '{"stage":"probing"}' },
      { event: 'status', data: '{"stage":"transcribing"}' },
      { event: 'end', data: '{"status":\n"completed"}' },
    ]);
  });

  it('builds the path with the job id encoded', () => {
    expect(jobStatusStreamPath('a b&c')).toBe('/api/job-status-stream?jobId=a%20b%26c');
  });
});
