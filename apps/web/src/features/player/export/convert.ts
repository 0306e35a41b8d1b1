import {
  CONVERSION_POLL_MAX_TRIES,
  CONVERSION_POLL_MS,
  type ConvertStartResponse,
  type ConvertStatusResponse,
  type ConvertUploadUrlResponse,
  type DownloadResultResponse,
  type ExportOverlay,
} from '@riffscribe/core';
import { session } from '../../../api/session';
import { ExportCancelled } from './recorder';

/** The MP4 sub-stages after recording (spec section 4, Export). */
export type Mp4Stage = 'uploading' | 'converting' | 'downloading';

/** A step of the MP4 path failed; `message` is one of the spec's export error texts. */
export class ConversionError extends Error {}

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new ExportCancelled());
    });
  });
}

/** PUTs the file with upload progress (fetch has none for request bodies). */
function put(
  url: string,
  headers: Record<string, string>,
  body: Blob,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      resolve(xhr.status);
    };
    xhr.onerror = () => {
      resolve(0);
    };
    signal.addEventListener('abort', () => {
      xhr.abort();
      reject(new ExportCancelled());
    });
    xhr.send(body);
  });
}

/**
 * The server's part of an export: upload the WebM (`/api/convert/upload-url`, PUT), start the
 * server's work (`/api/convert/start`), poll `/api/convert/status/{id}` every 2 s up to 150
 * times, then get the result's link. With `overlay` the WebM is the tab overlay's band and the
 * server puts it over the lesson's video (download-result `webm_converted.mp4` or
 * `video_with_tabs.webm`); without, the WebM is the whole video, converted to MP4
 * (`webm_converted.mp4`). Each step that fails throws a ConversionError with the spec's text.
 */
export async function convertOnServer(options: {
  jobId: string;
  webm: Blob;
  overlay?: ExportOverlay;
  onStage: (stage: Mp4Stage, fraction: number) => void;
  signal: AbortSignal;
}): Promise<string> {
  const { jobId, webm, overlay, onStage, signal } = options;
  onStage('uploading', 0);
  let link: ConvertUploadUrlResponse;
  try {
    link = await session.api<ConvertUploadUrlResponse>(
      '/api/convert/upload-url',
      post({ job_id: jobId, filename: 'export.webm', content_type: webm.type || 'video/webm' }),
    );
  } catch {
    throw new ConversionError('Failed to get upload URL');
  }
  const status = await put(
    link.upload_url,
    link.headers,
    webm,
    (f) => {
      onStage('uploading', f);
    },
    signal,
  );
  if (status < 200 || status >= 300) throw new ConversionError('Failed to upload WebM');

  let id: string;
  try {
    id = (
      await session.api<ConvertStartResponse>(
        '/api/convert/start',
        post(overlay ? { job_id: jobId, overlay } : { job_id: jobId }),
      )
    ).id;
  } catch {
    throw new ConversionError('Failed to start conversion');
  }
  onStage('converting', 0);
  for (let tries = 0; ; tries += 1) {
    if (tries >= CONVERSION_POLL_MAX_TRIES) throw new ConversionError('Conversion timed out');
    await wait(CONVERSION_POLL_MS, signal);
    let answer: ConvertStatusResponse;
    try {
      answer = await session.api<ConvertStatusResponse>(
        `/api/convert/status/${encodeURIComponent(id)}`,
      );
    } catch {
      // A lost poll is only a lost poll; the next one may answer.
      continue;
    }
    if (answer.status === 'failed') throw new ConversionError('Conversion failed');
    onStage('converting', answer.progress / 100);
    if (answer.status === 'completed') break;
  }
  onStage('downloading', 0);
  try {
    const { downloadUrl } = await session.api<DownloadResultResponse>(
      `/api/download-result?jobId=${encodeURIComponent(jobId)}&fileName=${
        overlay?.format === 'webm' ? 'video_with_tabs.webm' : 'webm_converted.mp4'
      }`,
    );
    return downloadUrl;
  } catch {
    throw new ConversionError('Failed to get download URL');
  }
}
