import { EXPORT_FPS, EXPORT_VIDEO_BITRATE } from '@riffscribe/core';
import { ArrayBufferTarget, Muxer } from 'webm-muxer';

/** The WebM flavours tried, best first (VP8 keeps up in real time on a modest machine). */
const MIME_TYPES = ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm'];

export class ExportCancelled extends Error {
  constructor() {
    super('The export was cancelled.');
    this.name = 'ExportCancelled';
  }
}

/**
 * Records the lesson as a WebM in real time: a hidden copy of the lesson's video plays from the
 * start (the tab must stay in front: a background tab gets no animation frames), each frame is drawn with the overlay (`draw`) on `canvas`, and the canvas's
 * picture and the video's own sound (routed through Web Audio, so nothing plays aloud) go to a
 * MediaRecorder. The recorder is paused until the first frame plays and stopped when the video
 * ends, so the file lasts as long as the lesson (MediaRecorder writes no duration in the header,
 * and drops frames when the machine cannot encode in real time: the fallback where WebCodecs are
 * missing). `onProgress` gets 0..1.
 */
async function recordInRealTime(options: RecordOptions): Promise<{ blob: Blob; duration: number }> {
  const { canvas, draw, onProgress, signal } = options;
  if (typeof MediaRecorder === 'undefined' || !('captureStream' in canvas)) {
    throw new Error('This browser cannot record video. Try a recent Chrome, Edge or Firefox.');
  }
  const mimeType = MIME_TYPES.find((t) => MediaRecorder.isTypeSupported(t));
  if (!mimeType) throw new Error('This browser cannot record WebM video.');

  const video = document.createElement('video');
  video.crossOrigin = 'anonymous';
  video.preload = 'auto';
  video.playsInline = true;
  video.src = options.videoUrl;
  // In the page but out of sight: a detached video may not be decoded at its playing pace.
  video.setAttribute('aria-hidden', 'true');
  video.style.cssText = 'position:fixed;left:-10000px;top:0;width:16px;height:16px;opacity:0';
  document.body.append(video);
  const audio = new AudioContext();
  const cleanup = () => {
    video.pause();
    video.removeAttribute('src');
    video.load();
    video.remove();
    void audio.close();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      video.addEventListener('loadeddata', () => {
        resolve();
      });
      video.addEventListener('error', () => {
        reject(new Error('The lesson video could not be loaded for the export.'));
      });
      signal.addEventListener('abort', () => {
        reject(new ExportCancelled());
      });
    });
    const duration = video.duration;
    const sound = audio.createMediaElementSource(video);
    const destination = audio.createMediaStreamDestination();
    sound.connect(destination);
    const stream = new MediaStream([
      ...canvas.captureStream(EXPORT_FPS).getVideoTracks(),
      ...destination.stream.getAudioTracks(),
    ]);
    const recorder = new MediaRecorder(stream, {
      mimeType,
      videoBitsPerSecond: EXPORT_VIDEO_BITRATE,
    });
    const chunks: Blob[] = [];
    recorder.addEventListener('dataavailable', (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    });
    const stopped = new Promise<void>((resolve) => {
      recorder.addEventListener('stop', () => {
        resolve();
      });
    });

    draw(video, 0);
    recorder.start(1000);
    recorder.pause();
    await audio.resume();
    let started = false;
    let finished = false;
    // Drawn on every display frame (a video element outside the page gets no frame callbacks);
    // the canvas stream takes at most EXPORT_FPS of them a second.
    const frame = () => {
      if (finished) return;
      draw(video, video.currentTime);
      if (!started && video.currentTime > 0) {
        started = true;
        recorder.resume();
      }
      onProgress(duration > 0 ? Math.min(1, video.currentTime / duration) : 0);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    const ended = new Promise<void>((resolve, reject) => {
      video.addEventListener('ended', () => {
        resolve();
      });
      signal.addEventListener('abort', () => {
        reject(new ExportCancelled());
      });
    });
    await video.play();
    try {
      await ended;
    } finally {
      finished = true;
      if (recorder.state === 'paused') recorder.resume();
      draw(video, duration);
      recorder.stop();
      await stopped;
      for (const track of stream.getTracks()) track.stop();
    }
    onProgress(1);
    return { blob: new Blob(chunks, { type: mimeType.split(';')[0] ?? 'video/webm' }), duration };
  } finally {
    cleanup();
  }
}

export interface RecordOptions {
  videoUrl: string;
  canvas: HTMLCanvasElement;
  /** Draws the frame at `time` with the video's picture: the element, or a bitmap of its frame. */
  draw: (video: HTMLVideoElement | ImageBitmap, time: number) => void;
  onProgress: (fraction: number) => void;
  signal: AbortSignal;
}

/** How the last export was made, and how fast: seconds of lesson per second of work. */
export interface RecordResult {
  webm: Blob;
  method: 'frame by frame' | 'real time';
  speed: number;
  /** The video's length, seconds. */
  duration: number;
}

/**
 * Makes the WebM: frame by frame with WebCodecs where the browser has them (exact frame times,
 * no dropped frames, as fast as the machine encodes, which may be faster than real time), else
 * recorded in real time with MediaRecorder.
 */
export async function recordLesson(options: RecordOptions): Promise<RecordResult> {
  const started = performance.now();
  const frameByFrame = await webCodecsAvailable(options.canvas.width, options.canvas.height);
  const webm = frameByFrame ? await renderFrameByFrame(options) : await recordInRealTime(options);
  const seconds = (performance.now() - started) / 1000;
  return {
    webm: webm.blob,
    method: frameByFrame ? 'frame by frame' : 'real time',
    speed: seconds > 0 ? webm.duration / seconds : 0,
    duration: webm.duration,
  };
}

export async function webCodecsAvailable(width: number, height: number): Promise<boolean> {
  if (typeof VideoEncoder === 'undefined' || typeof VideoFrame === 'undefined') return false;
  try {
    const support = await VideoEncoder.isConfigSupported(videoConfig(width, height));
    return support.supported === true;
  } catch {
    return false;
  }
}

function videoConfig(width: number, height: number): VideoEncoderConfig {
  return {
    codec: 'vp8',
    width,
    height,
    bitrate: EXPORT_VIDEO_BITRATE,
    framerate: EXPORT_FPS,
    // The encoder's fast settings: at 20 Mbit/s the picture is as good either way.
    latencyMode: 'realtime',
  };
}

/** The lesson's sound, decoded and resampled to 48 kHz (Opus's rate); null for a silent video. */
async function decodeSound(url: string, signal: AbortSignal): Promise<AudioBuffer | null> {
  const bytes = await (await fetch(url, { signal })).arrayBuffer();
  const context = new OfflineAudioContext(1, 1, 48_000);
  try {
    return await context.decodeAudioData(bytes);
  } catch {
    return null;
  }
}

const AUDIO_CHUNK = 4_800;

/**
 * Renders every frame at its exact time (the hidden video is seeked to it, drawn with the
 * overlay, encoded as VP8) and the lesson's sound as Opus, into a WebM that WebM's own muxer
 * writes with its duration. Encoding waits when the encoder falls behind, so memory stays flat.
 */
async function renderFrameByFrame(
  options: RecordOptions,
): Promise<{ blob: Blob; duration: number }> {
  const { canvas, draw, onProgress, signal } = options;
  const video = document.createElement('video');
  video.crossOrigin = 'anonymous';
  video.preload = 'auto';
  video.muted = true;
  video.src = options.videoUrl;
  const cancelled = () => {
    if (signal.aborted) throw new ExportCancelled();
  };
  let failure: Error | null = null;
  const fail = (error: unknown) => {
    failure ??= error instanceof Error ? error : new Error(String(error));
  };
  try {
    await new Promise<void>((resolve, reject) => {
      video.addEventListener('loadeddata', () => {
        resolve();
      });
      video.addEventListener('error', () => {
        reject(new Error('The lesson video could not be loaded for the export.'));
      });
    });
    cancelled();
    const duration = video.duration;
    const sound = await decodeSound(options.videoUrl, signal);
    const target = new ArrayBufferTarget();
    const muxer = new Muxer({
      target,
      video: { codec: 'V_VP8', width: canvas.width, height: canvas.height, frameRate: EXPORT_FPS },
      ...(sound
        ? {
            audio: {
              codec: 'A_OPUS',
              numberOfChannels: sound.numberOfChannels,
              sampleRate: sound.sampleRate,
            },
          }
        : {}),
      firstTimestampBehavior: 'offset',
    });
    const videoEncoder = new VideoEncoder({
      output: (chunk, meta) => {
        muxer.addVideoChunk(chunk, meta);
      },
      error: fail,
    });
    videoEncoder.configure(videoConfig(canvas.width, canvas.height));

    if (sound) {
      const audioEncoder = new AudioEncoder({
        output: (chunk, meta) => {
          muxer.addAudioChunk(chunk, meta);
        },
        error: fail,
      });
      audioEncoder.configure({
        codec: 'opus',
        sampleRate: sound.sampleRate,
        numberOfChannels: sound.numberOfChannels,
        bitrate: 128_000,
      });
      for (let start = 0; start < sound.length; start += AUDIO_CHUNK) {
        const frames = Math.min(AUDIO_CHUNK, sound.length - start);
        const planar = new Float32Array(frames * sound.numberOfChannels);
        for (let c = 0; c < sound.numberOfChannels; c += 1) {
          planar.set(sound.getChannelData(c).subarray(start, start + frames), c * frames);
        }
        const data = new AudioData({
          format: 'f32-planar',
          sampleRate: sound.sampleRate,
          numberOfFrames: frames,
          numberOfChannels: sound.numberOfChannels,
          timestamp: Math.round((start / sound.sampleRate) * 1e6),
          data: planar,
        });
        audioEncoder.encode(data);
        data.close();
      }
      await audioEncoder.flush();
      audioEncoder.close();
    }

    const count = Math.max(1, Math.round(duration * EXPORT_FPS));
    const progress = wholePercents(count, onProgress);
    for (let i = 0; i < count; i += 1) {
      cancelled();
      // The encoders report their faults through callbacks, which TypeScript does not follow.
      const encoderFault = failure as Error | null;
      if (encoderFault) throw encoderFault;
      const time = i / EXPORT_FPS;
      await seek(video, time);
      // A bitmap of the frame, not the element: drawing a video element onto the canvas waits
      // for the media pipeline, and while the encoder keeps the cores busy that took 90-240 ms a
      // frame (Chromium 156, software canvas); the bitmap takes about 1 ms.
      const picture = await createImageBitmap(video);
      try {
        draw(picture, time);
      } finally {
        picture.close();
      }
      await encodeFrame(videoEncoder, canvas, i);
      progress(i + 1);
    }
    await videoEncoder.flush();
    videoEncoder.close();
    const encoderFailure = failure as Error | null;
    if (encoderFailure) throw encoderFailure;
    muxer.finalize();
    return { blob: new Blob([target.buffer], { type: 'video/webm' }), duration };
  } catch (error) {
    if (error instanceof ExportCancelled) throw error;
    throw new Error(
      `The video could not be made: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    video.removeAttribute('src');
    video.load();
  }
}

/** Moves the video to `time` and waits until that frame can be drawn. */
function seek(video: HTMLVideoElement, time: number): Promise<void> {
  const target = Math.min(time, Math.max(0, video.duration - 0.001));
  if (Math.abs(video.currentTime - target) < 1e-4 && video.readyState >= 2) {
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const done = () => {
      video.removeEventListener('seeked', done);
      video.removeEventListener('error', failed);
      resolve();
    };
    const failed = () => {
      video.removeEventListener('seeked', done);
      reject(new Error('The lesson video could not be read.'));
    };
    video.addEventListener('seeked', done);
    video.addEventListener('error', failed);
    video.currentTime = target;
  });
}

/** The length of the video at `url` in seconds (its metadata only is loaded). */
export function videoDuration(url: string, signal: AbortSignal): Promise<number> {
  const video = document.createElement('video');
  video.preload = 'metadata';
  video.muted = true;
  video.crossOrigin = 'anonymous';
  return new Promise<number>((resolve, reject) => {
    video.addEventListener('loadedmetadata', () => {
      if (Number.isFinite(video.duration) && video.duration > 0) resolve(video.duration);
      else reject(new Error('The lesson video has no length.'));
    });
    video.addEventListener('error', () => {
      reject(new Error('The lesson video could not be loaded for the export.'));
    });
    signal.addEventListener('abort', () => {
      reject(new ExportCancelled());
    });
    video.src = url;
  }).finally(() => {
    video.removeAttribute('src');
    video.load();
  });
}

/**
 * Renders the tab overlay's band alone, frame by frame for `duration` seconds at EXPORT_FPS, as
 * a silent VP8 WebM of `canvas`'s size: no video to seek or decode, and a band of flat colours
 * encodes in a few milliseconds a frame (the server puts it over the lesson's video). `draw`
 * draws the band at a time onto `canvas`; `onProgress` gets 0..1.
 */
export async function renderBand(options: {
  canvas: HTMLCanvasElement;
  duration: number;
  draw: (time: number) => void;
  onProgress: (fraction: number) => void;
  signal: AbortSignal;
}): Promise<Blob> {
  const { canvas, draw, onProgress, signal } = options;
  let failure: Error | null = null;
  const target = new ArrayBufferTarget();
  const muxer = new Muxer({
    target,
    video: { codec: 'V_VP8', width: canvas.width, height: canvas.height, frameRate: EXPORT_FPS },
    firstTimestampBehavior: 'offset',
  });
  const encoder = new VideoEncoder({
    output: (chunk, meta) => {
      muxer.addVideoChunk(chunk, meta);
    },
    error: (error) => {
      failure ??= error instanceof Error ? error : new Error(String(error));
    },
  });
  encoder.configure({ ...videoConfig(canvas.width, canvas.height), bitrate: 4_000_000 });
  try {
    const count = Math.max(1, Math.round(options.duration * EXPORT_FPS));
    const progress = wholePercents(count, onProgress);
    for (let i = 0; i < count; i += 1) {
      if (signal.aborted) throw new ExportCancelled();
      const encoderFault = failure as Error | null;
      if (encoderFault) throw encoderFault;
      const time = i / EXPORT_FPS;
      draw(time);
      await encodeFrame(encoder, canvas, i);
      // A yield now and then keeps the page (and its Cancel button) responsive.
      if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 0));
      progress(i + 1);
    }
    await encoder.flush();
    const encoderFailure = failure as Error | null;
    if (encoderFailure) throw encoderFailure;
    muxer.finalize();
    return new Blob([target.buffer], { type: 'video/webm' });
  } catch (error) {
    if (error instanceof ExportCancelled) throw error;
    throw new Error(
      `The tab overlay could not be made: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    if (encoder.state !== 'closed') encoder.close();
  }
}

/**
 * Encodes the canvas as frame `i` (a key frame every two seconds) and waits while the encoder
 * has more than two frames queued, so that memory stays flat however slow it is.
 */
async function encodeFrame(encoder: VideoEncoder, canvas: HTMLCanvasElement, i: number) {
  const frame = new VideoFrame(canvas, {
    timestamp: Math.round((i / EXPORT_FPS) * 1e6),
    duration: Math.round(1e6 / EXPORT_FPS),
  });
  encoder.encode(frame, { keyFrame: i % (EXPORT_FPS * 2) === 0 });
  frame.close();
  while (encoder.encodeQueueSize > 2) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * Progress of `count` frames reported in whole percents only: each report repaints the export
 * dialog, and without a GPU every repaint takes CPU the encoder needs.
 */
function wholePercents(count: number, onProgress: (fraction: number) => void) {
  let shown = -1;
  return (done: number) => {
    const percent = Math.floor((done * 100) / count);
    if (percent === shown) return;
    shown = percent;
    onProgress(done / count);
  };
}
