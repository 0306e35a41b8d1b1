import { asEngineFailure, loadEngine } from './engine-api.js';
import {
  isEngineRequest,
  type EngineRequest,
  type EngineResponse,
  type InternalFailure,
} from './engine-protocol.js';

/**
 * The engine child process: runs `probeMedia` and `transcribe` for its parent (the API server
 * in embedded mode, a `npm run worker` process in scaled mode), so that the note model (ONNX
 * Runtime) and its CPU work never block the parent's event loop. The model is loaded as soon as
 * the child starts and stays loaded for its life, so a job does not wait for it. It exits when
 * its parent goes away.
 */

const controllers = new Map<number, AbortController>();

function send(message: EngineResponse): void {
  process.send?.(message);
}

function internal(error: unknown): InternalFailure {
  return error instanceof Error
    ? { code: 'internal', name: error.name, message: error.message }
    : { code: 'internal', name: typeof error, message: String(error) };
}

async function handle(request: Exclude<EngineRequest, { type: 'cancel' }>): Promise<void> {
  const controller = new AbortController();
  controllers.set(request.id, controller);
  try {
    const engine = await loadEngine();
    if (request.type === 'probe') {
      const facts = await engine.probeMedia(request.file, { signal: controller.signal });
      send({ type: 'probed', id: request.id, facts });
      return;
    }
    let lastSent = 0;
    let lastStage = '';
    const transcription = await engine.transcribe(
      request.file,
      request.config,
      (progress) => {
        // Stage changes always go out; within a stage, at most a few reports a second.
        const now = Date.now();
        if (progress.stage === lastStage && now - lastSent < 250) return;
        lastStage = progress.stage;
        lastSent = now;
        send({ type: 'progress', id: request.id, progress });
      },
      {
        signal: controller.signal,
        ...(request.maxDurationSeconds === undefined
          ? {}
          : { maxDurationSeconds: request.maxDurationSeconds }),
        ...(request.durationSeconds === undefined
          ? {}
          : { probed: { durationSeconds: request.durationSeconds } }),
      },
    );
    send({ type: 'transcribed', id: request.id, transcription });
  } catch (error) {
    send({ type: 'failed', id: request.id, failure: asEngineFailure(error) ?? internal(error) });
  } finally {
    controllers.delete(request.id);
  }
}

process.on('message', (message: unknown) => {
  if (!isEngineRequest(message)) return;
  if (message.type === 'cancel') {
    controllers.get(message.id)?.abort();
    return;
  }
  void handle(message);
});

// Orphaned children would hold a model in memory for nothing. The worker is gone (killed, perhaps
// with SIGKILL): stop the running transcriptions first, which kills their ffmpeg at once, so no
// decoder outlives us either.
process.on('disconnect', () => {
  for (const controller of controllers.values()) controller.abort();
  process.exit(0);
});

send({ type: 'ready' });

// Warm the model while the queue is still empty. A failure here is not reported: the first
// transcription loads it again and fails with the engine's model_failed error, on its job.
void loadEngine()
  .then((engine) => engine.loadModels())
  .catch(() => undefined);
