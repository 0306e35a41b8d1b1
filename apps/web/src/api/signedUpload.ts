/** The PUT to a signed storage link failed with this HTTP status (0: no answer at all). */
export class DirectUploadError extends Error {
  constructor(readonly status: number) {
    super(`Direct upload failed with status ${String(status)}.`);
    this.name = 'DirectUploadError';
  }
}

/**
 * Sends a file straight to a signed storage link with XMLHttpRequest, because fetch cannot report
 * upload progress. onProgress receives the fraction sent, 0..1.
 */
export function uploadToSignedUrl(options: {
  url: string;
  method: string;
  headers: Record<string, string>;
  file: Blob;
  onProgress: (fraction: number) => void;
}): Promise<void> {
  const { url, method, headers, file, onProgress } = options;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) {
      // Browsers set these themselves and refuse scripts that try.
      if (/^(content-length|host)$/i.test(name)) continue;
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
      } else {
        reject(new DirectUploadError(xhr.status));
      }
    };
    xhr.onerror = () => {
      reject(new DirectUploadError(0));
    };
    xhr.send(file);
  });
}
