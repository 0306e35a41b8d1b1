import path from 'node:path';

/**
 * Pieces of ffmpeg/ffprobe command lines every caller of the media owner uses the same way.
 */

/**
 * Reads `file` as `file:<absolute path>` with only the file protocol and only the given demuxers,
 * so no playlist, list of files or other protocol is ever followed.
 */
export function whitelistedInput(file: string, demuxers: readonly string[]): string[] {
  return [
    '-protocol_whitelist',
    'file',
    '-format_whitelist',
    demuxers.join(','),
    '-i',
    `file:${path.resolve(file)}`,
  ];
}

/**
 * An `onStdout` for ffmpeg run with `-progress pipe:1`: calls `onOutTime` with the output time
 * written so far (microseconds) for every progress line; it returns false to stop the run.
 */
export function progressReader(
  onOutTime: (microseconds: number) => boolean,
): (chunk: Buffer) => boolean {
  let pending = '';
  return (chunk) => {
    const lines = (pending + chunk.toString('utf8')).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const match = /^out_time_(?:us|ms)=(\d+)$/.exec(line.trim());
      if (match && !onOutTime(Number(match[1]))) return false;
    }
    return true;
  };
}
