import { formatMegabytes } from '@riffscribe/core';
import { Icon } from '../../ui/Icon';
import type { ChosenVideo } from './wizardState';

/** The chosen video's name, size and length, with 'Choose different file' (resets the wizard). */
export function SelectedVideo(props: {
  video: ChosenVideo;
  onReset: () => void;
  disabled: boolean;
}) {
  const { video, onReset, disabled } = props;
  return (
    <div className="selected-video">
      <span className="selected-video-icon" aria-hidden="true">
        <Icon name={video.source === 'recording' ? 'camera' : 'film'} size={20} />
      </span>
      <div className="selected-video-text">
        <p className="selected-video-name" title={video.file.name}>
          {video.file.name}
        </p>
        <p className="muted small">
          {formatMegabytes(video.file.size)} · {video.durationSeconds.toFixed(1)} s
          {video.source === 'recording' ? ' · recorded' : ''}
        </p>
      </div>
      <button type="button" className="button ghost small" onClick={onReset} disabled={disabled}>
        Choose different file
      </button>
    </div>
  );
}
