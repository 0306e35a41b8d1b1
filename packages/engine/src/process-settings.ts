/**
 * How a process that runs the engine for a long time (the worker's engine child, the benchmark's
 * child) should be started so that its memory follows the clip it works on, not the longest clip
 * it ever worked on. Measured with `npm run bench` (docs/performance.md): the 30 s clip's peak RSS
 * 258-262 MB -> about 150 MB, the 10-minute video's 302-324 MB -> about 175-190 MB, no change in
 * speed (with the posteriorgrams on disk as well, 125-139 MB and 134-142 MB).
 *
 * - `MALLOC_MMAP_THRESHOLD_`: glibc serves allocations of 128 KiB and more (the model's tensors,
 *   a batch's outputs) with their own pages and gives them back when freed; with its default
 *   (a threshold that rises after the first large free) they stay in the process's heap, so
 *   the memory of the largest batch ever run stays resident.
 * - `MALLOC_ARENA_MAX`: ONNX Runtime's threads would each keep an arena of their own.
 * - `--max-semi-space-size=1` (MB): V8 collects young objects sooner, and with them the output
 *   tensors of batches already copied, whose memory is outside V8's heap and otherwise waits for a
 *   collection the small JavaScript heap seldom needs.
 * - `--optimize-for-size`: V8 lets its heap grow less far past what is alive before collecting.
 *   The later stages of a 10-minute video (3,000 notes) otherwise leave 30 MB of garbage in the
 *   heap when the next model call comes (npm run bench: 10-minute peak 163 -> 140 MB, the same
 *   speed).
 * - `--expose-gc`: the model adapter collects young garbage after every 5 MB of model outputs,
 *   which frees ONNX Runtime's output buffers (adapters/model.ts). Without it they waited for a
 *   collection and the 10-minute peak moved by 15-20 MB from run to run.
 *
 * Settings already in the environment win (an operator's tuning).
 */
export function engineProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    MALLOC_MMAP_THRESHOLD_: '131072',
    MALLOC_ARENA_MAX: '2',
    ...env,
  };
}

/** Node flags for such a process (before the script). */
export const ENGINE_EXEC_ARGV: readonly string[] = [
  '--max-semi-space-size=1',
  '--optimize-for-size',
  '--expose-gc',
];
