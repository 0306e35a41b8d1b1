import { VIDEO_ZOOM } from '@riffscribe/core';

/** The lesson video with its capo, tuning and key badges and the video zoom slider. */
export function VideoPanel(props: {
  src: string | undefined;
  onVideoElement: (el: HTMLVideoElement | null) => void;
  capo: number;
  tuningName: string;
  musicalKey: string;
  zoom: number;
  onZoom: (zoom: number) => void;
  onVideoError: () => void;
}) {
  const { src, capo, tuningName, musicalKey, zoom, onVideoElement, onVideoError } = props;
  return (
    <section className="lp-video" aria-label="Video">
      <div className="lp-badges">
        <span className="lp-badge" data-testid="badge-capo">
          {capo > 0 ? `Capo ${String(capo)}` : 'No capo'}
        </span>
        <span className="lp-badge" data-testid="badge-tuning">
          {tuningName}
        </span>
        {musicalKey && (
          <span className="lp-badge" data-testid="badge-key">
            {musicalKey}
          </span>
        )}
      </div>
      <div className="lp-video-frame">
        <video
          ref={onVideoElement}
          src={src}
          playsInline
          preload="auto"
          style={{ transform: `scale(${String(zoom)})` }}
          onError={onVideoError}
        />
      </div>
      <label className="lp-slider lp-video-zoom">
        <span className="lp-tool-label">Video zoom</span>
        <input
          type="range"
          aria-label="Video zoom"
          min={VIDEO_ZOOM.min}
          max={VIDEO_ZOOM.max}
          step={VIDEO_ZOOM.step}
          value={zoom}
          onChange={(e) => {
            props.onZoom(Number(e.target.value));
          }}
        />
        <output>{zoom.toFixed(1)}x</output>
      </label>
    </section>
  );
}
