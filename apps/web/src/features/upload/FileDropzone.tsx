import { MAX_UPLOAD_BYTES, MAX_VIDEO_SECONDS } from '@riffscribe/core';
import { useId, useState } from 'react';
import { Icon } from '../../ui/Icon';

const LIMITS_HINT = ` · up to ${String(MAX_VIDEO_SECONDS)} seconds and ${String(MAX_UPLOAD_BYTES / (1024 * 1024))}MB`;

/** The 'Upload File' panel: drag and drop a video, or click to choose one (accepts video/*). */
export function FileDropzone(props: {
  onFile: (file: File) => void;
  busy: boolean;
  limited: boolean;
}) {
  const { onFile, busy, limited } = props;
  const [over, setOver] = useState(false);
  const inputId = useId();
  const hintId = useId();

  return (
    <div
      className={`dropzone ${over ? 'is-over' : ''} ${busy ? 'is-busy' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => {
        setOver(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        const file = event.dataTransfer.files[0];
        if (file && !busy) onFile(file);
      }}
    >
      <span className="dropzone-icon" aria-hidden="true">
        <Icon name="upload" size={28} />
      </span>
      <p className="dropzone-title">
        {busy ? 'Checking your video…' : 'Drag and drop your video here'}
      </p>
      <p className="dropzone-hint" id={hintId}>
        MP4, MOV, WebM or MKV{limited ? LIMITS_HINT : ''}
      </p>
      <label className={`button secondary ${busy ? 'is-disabled' : ''}`} htmlFor={inputId}>
        Choose a video file
      </label>
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        accept="video/*"
        aria-describedby={hintId}
        disabled={busy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </div>
  );
}
