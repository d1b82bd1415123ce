/**
 * One run of a workload, front to back: manifest -> compile every shader -> (instrument) -> link
 * and lower the ray tracing pipeline -> host setup (scene, acceleration structure, descriptors)
 * -> functional simulation -> image, counters, instrumentation dump. Each arrow is a plain call
 * into its stage; the driver only wires them (the CLI is a thin shell over it).
 */
import type { ItsPolicy } from '../sim/functional/launch-state.js';
import type { FloatModel } from '../sim/functional/float-model.js';
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import { registersLiveAtTraceRay } from '../ir/liveness.js';
import {
  DEFAULT_BUFFER_WORDS, FIRST_ENTRY_WORD, INSTRUMENTATION_BINDING, INSTRUMENTATION_SET, WORDS_WRITTEN_WORD,
} from '../primitives/buffer-layout.js';
import type { PlacementRef } from '../passes/instrument/instrument-module.js';
import { instrumentCompiled } from './instrument-compiled.js';
import type { Module } from '../ir/module.js';
import { injectPixelCostCounters, PIXEL_COST_BINDING, PIXEL_COST_SET } from '../passes/zatel/pixel-cost.js';
import { injectPixelFilter, PIXEL_FILTER_BINDING, PIXEL_FILTER_SET } from '../passes/zatel/pixel-filter.js';
import { linkPipeline, type LinkedPipeline, type PipelineStages } from '../passes/lower/rt-pipeline.js';
import type { Counters } from '../sim/functional/counters.js';
import { compileProgram, type Program } from '../sim/functional/program.js';
import { runFunctional } from '../sim/functional/launch.js';
import type { SimImage } from '../sim/functional/images.js';
import {
  buildAccelerationStructureFor, buildHostSetup, runParameters, type HostSetup, type RunParameters,
} from '../sim/host/build-resources.js';
import { loadScene } from '../sim/host/load-scene.js';
import { RtRuntime, type RtCounters } from '../sim/pipeline/rt-runtime.js';
import type { Scene } from '../sim/rt/scene.js';
import type { AccelerationStructure } from '../sim/rt/acceleration-structure.js';
import { loadManifest, resolveWorkload } from '../sim/workload/load-manifest.js';
import { unusedRunOptionWarnings } from '../sim/workload/run-parameter-uses.js';
import { usesNamedBuffers } from '../sim/workload/acceleration-structures.js';
import type { WorkloadManifest } from '../sim/workload/manifest.js';
import { cloneCompiled, compileWorkload, type CompiledWorkload } from './compile-workload.js';
import { copyImage, sumCounters, sumRtCounters, takeRtCounters, type FrameRun } from './frame-totals.js';
import type { LaunchMapping } from '../sim/functional/warp-mapping.js';
import { DEFAULT_MEMORY_BUDGET_BYTES, LaunchLimitError, launchProblem } from '../sim/workload/launch-limits.js';

export interface RunOptions extends Partial<RunParameters> {
  /** Instrument the shaders with these V-Vision utilities (built-in names or utilities) before lowering. */
  instrument?: readonly PlacementRef[];
  /**
   * The shared compilation's modules are already instrumented with this metadata (the library's
   * `instrument()`): allocate the instrumentation buffer for it, instrument nothing more.
   */
  instrumented?: InstrumentationMetadata;
  /** Instrumentation buffer size in 32-bit words. */
  bufferWords?: number;
  mapping?: LaunchMapping;
  /** Lower traceRay with function call coalescing (Vulkan-Sim Algorithm 3). */
  fcc?: boolean;
  /** Independent thread scheduling (Vulkan-Sim IV-B) instead of the IPDOM SIMT stack. */
  its?: boolean;
  /** Overrides the manifest's `floatModel` (src/sim/functional/float-model.ts). */
  floatModel?: FloatModel;
  /**
   * With `its`: how splits reconverge (src/sim/functional/launch-state.ts ItsPolicy): 'barriers'
   * (default: NVIDIA's, none across a traceRay), 'barriers-all' (its_reconverge_after_trace), or
   * 'merge' (the earlier opportunistic merging).
   */
  itsPolicy?: ItsPolicy;
  /**
   * Refuse a launch whose simulation would need more than this many bytes (estimated before
   * anything is compiled: src/sim/workload/launch-limits.ts); default DEFAULT_MEMORY_BUDGET_BYTES.
   */
  memoryBudgetBytes?: number;
  /** Push-constant members set for this run over the manifest's `pushConstants` (CLI `--push name=value`). */
  push?: Record<string, number>;
  /**
   * Zatel's pixel filter (src/passes/zatel/pixel-filter.ts): one bit per launch thread, 1 = trace;
   * threads whose bit is 0 exit at the start of the ray generation shader.
   */
  pixelMask?: Uint32Array;
  /**
   * Zatel's heatmap profile (src/passes/zatel/pixel-cost.ts): count the instructions each launch
   * thread executes, across every stage, into `RunResult.pixelCost`.
   */
  pixelCost?: boolean;
  /** Where warnings go (a run option nothing in the manifest uses); default stderr. */
  onWarning?: (message: string) => void;
  /** Multi-frame runs: keep a copy of the output image after every frame (`RunResult.frames[i].image`). */
  frameImages?: boolean;
  /**
   * Multi-frame runs: the first frame of the range to measure (default 0; the range ends with the
   * last of `frames`). Frames before it are fast-forwarded on the functional core: their effects on
   * memory are kept, but they produce no statistics, dumps or timing and Zatel's pixel filter
   * does not apply to them.
   */
  firstFrame?: number;
}

/** Warnings already printed: runs of one workload (instrument's modes, a sweep's points) say each once. */
const printedWarnings = new Set<string>();

function warnOnStderr(message: string): void {
  if (printedWarnings.has(message)) return;
  printedWarnings.add(message);
  process.stderr.write(`warning: ${message}\n`);
}

/** Everything a run produced; plain data, handed on to analytics and reports. */
export interface RunResult {
  manifest: WorkloadManifest;
  params: RunParameters;
  linked: LinkedPipeline;
  scene: Scene;
  accel: AccelerationStructure;
  image: SimImage | undefined;
  counters: Counters;
  rt: RtCounters;
  /** Present when instrumented: the raw buffer (Fig. 6 layout) and its static metadata. */
  dump?: Uint8Array;
  metadata?: InstrumentationMetadata;
  /** With `RunOptions.pixelCost`: instructions per launch thread (index x + w * (y + h * z)). */
  pixelCost?: Uint32Array;
  /** Milliseconds per phase. */
  timings: Record<'compile' | 'instrument' | 'link' | 'scene' | 'simulate', number>;
  /**
   * Every frame's own figures, in order (`params.frames` launches; one entry for a one-frame run).
   * `counters` and `rt` above are their totals; `image` is the output after the last frame.
   */
  frames: FrameRun[];
}

/** A workload prepared for simulation: what both the functional and the timing runs start from. */
export interface PreparedRun {
  /** Register words per thread live across the raygen shader's traceRays (most over its sites): what ray virtualization saves. */
  raygenLiveRegisters: number;
  manifest: WorkloadManifest;
  params: RunParameters;
  linked: LinkedPipeline;
  scene: Scene;
  host: HostSetup;
  /** The lowered pipeline compiled to JS, on first read (a device launch never reads it). */
  readonly program: Program;
  rt: RtRuntime;
  dumpBuffer?: Uint8Array;
  metadata?: InstrumentationMetadata;
  /** When instrumented: the instrumented stage modules (raygen first) before the pipeline lowering. */
  instrumentedModules?: Module[];
  /** The pipeline's stage modules as the SBT orders them (instrumented when the run is), before the lowering: what a real device runs. */
  stages: PipelineStages;
  pixelCost?: Uint32Array;
  timings: RunResult['timings'];
  /** Warp reconvergence the launch uses (from RunOptions.its). */
  reconvergence: 'ipdom' | 'its';
  itsPolicy: ItsPolicy;
}

/**
 * What several runs of one workload share (`vvision instrument --mode all` runs it once per
 * utility): the manifest, the uninstrumented stage modules, the scene and its acceleration
 * structure. Each run works on its own copy of the modules.
 */
export interface SharedPreparation {
  manifest: WorkloadManifest;
  compiled: CompiledWorkload;
  scene: Scene;
  /** Absent when declared geometry reads named buffers: each run builds it from its packed buffers. */
  accel?: AccelerationStructure;
}

export async function sharedPreparation(workload: string): Promise<SharedPreparation> {
  const manifest = loadManifest(resolveWorkload(workload));
  const compiled = compileWorkload(manifest);
  const scene = await loadScene(manifest.scene, manifest.path);
  // Declared geometry that reads the host's named buffers is built with them, per run.
  return { manifest, compiled, scene, ...(usesNamedBuffers(manifest.accelerationStructures) ? {} : { accel: buildAccelerationStructureFor(manifest, scene) }) };
}

/**
 * `record`: the timing model will replay traversals, with this many on-chip stack entries per ray.
 * `shared`: reuse another run's compilation, scene and acceleration structure.
 */
export async function prepareRun(
  workload: string, opts: RunOptions = {},
  record?: { shortStackSize: number; rays?: boolean; bvh?: { layout: 'treelet'; treeletBytes: number } },
  shared?: SharedPreparation,
): Promise<PreparedRun> {
  const timings: RunResult['timings'] = { compile: 0, instrument: 0, link: 0, scene: 0, simulate: 0 };
  let t = performance.now();
  const lap = (k: keyof RunResult['timings']) => {
    const now = performance.now();
    timings[k] += now - t;
    t = now;
  };
  const loaded = shared?.manifest ?? loadManifest(resolveWorkload(workload));
  const manifest = opts.push ? { ...loaded, pushConstants: { ...(loaded.pushConstants ?? {}), ...opts.push } } : loaded;
  const params = runParameters(manifest, opts);
  const given = Object.fromEntries((['spp', 'bounces', 'seed'] as const).filter((k) => opts[k] !== undefined).map((k) => [k, opts[k]!]));
  for (const w of unusedRunOptionWarnings(manifest, given)) (opts.onWarning ?? warnOnStderr)(w);
  const sizeFrom = opts.width !== undefined || opts.height !== undefined ? '--width/--height' : `${manifest.path}: launch`;
  const tooLarge = launchProblem(manifest, { width: params.width, height: params.height, depth: manifest.launch.depth }, opts.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES, sizeFrom);
  if (tooLarge) throw new LaunchLimitError(tooLarge);
  const compiled = shared ? cloneCompiled(shared.compiled) : compileWorkload(manifest);
  lap('compile');
  let metadata: InstrumentationMetadata | undefined;
  if (opts.instrumented) metadata = opts.instrumented;
  else if (opts.instrument && opts.instrument.length > 0) metadata = instrumentCompiled(compiled, opts.instrument);
  if (opts.pixelMask) injectPixelFilter(compiled.stages.raygen);
  if (opts.pixelCost) for (const m of compiled.modules) injectPixelCostCounters(m);
  lap('instrument');
  const raygenLiveRegisters = registersLiveAtTraceRay(compiled.stages.raygen);
  const linked = linkPipeline(compiled.stages, { fcc: opts.fcc ?? false });
  lap('link');
  const scene = shared?.scene ?? await loadScene(manifest.scene, manifest.path);
  // A treelet layout is built for this run even when other runs share a breadth-first one.
  const afterBuffers = usesNamedBuffers(manifest.accelerationStructures);
  const accel = afterBuffers ? undefined : record?.bvh ? buildAccelerationStructureFor(manifest, scene, record.bvh) : shared?.accel;
  const host = buildHostSetup(manifest, linked, scene, params, accel, record?.bvh ?? {});
  let dumpBuffer: Uint8Array | undefined;
  if (metadata) {
    dumpBuffer = new Uint8Array((opts.bufferWords ?? DEFAULT_BUFFER_WORDS) * 4);
    host.resources.buffers!.push({ set: INSTRUMENTATION_SET, binding: INSTRUMENTATION_BINDING, data: dumpBuffer });
  }
  let pixelCost: Uint32Array | undefined;
  if (opts.pixelCost) {
    pixelCost = new Uint32Array(Math.max(1, host.launch[0] * host.launch[1] * host.launch[2]));
    host.resources.buffers!.push({ set: PIXEL_COST_SET, binding: PIXEL_COST_BINDING, data: new Uint8Array(pixelCost.buffer) });
  }
  if (opts.pixelMask) {
    const m = opts.pixelMask;
    host.resources.buffers!.push({ set: PIXEL_FILTER_SET, binding: PIXEL_FILTER_BINDING, data: new Uint8Array(m.buffer, m.byteOffset, m.byteLength) });
  }
  lap('scene');
  const rt = new RtRuntime({
    accels: host.accels, maxRecursionDepth: manifest.maxRecursionDepth, record: record !== undefined, fcc: opts.fcc ?? false,
    ...(record ? { shortStackSize: record.shortStackSize, recordRays: record.rays ?? false } : {}),
  });
  lap('simulate');
  // Compiled on first read, its time counted as simulation (as before); the runners read it before
  // their timed regions. A device launch only writes the bundle and never reads it.
  let program: Program | undefined;
  const out: PreparedRun = {
    raygenLiveRegisters, stages: compiled.stages, manifest, params, linked, scene, host, rt, timings, reconvergence: opts.its ? 'its' : 'ipdom', itsPolicy: opts.itsPolicy ?? 'barriers',
    get program() {
      if (program === undefined) {
        const t0 = performance.now();
        program = compileProgram(linked.module, opts.floatModel ?? manifest.floatModel);
        timings.simulate += performance.now() - t0;
      }
      return program;
    },
  };
  if (dumpBuffer) out.dumpBuffer = dumpBuffer;
  if (metadata) out.metadata = metadata;
  if (metadata) out.instrumentedModules = compiled.modules;
  if (pixelCost) out.pixelCost = pixelCost;
  return out;
}

/** The entry function and launch options shared by functional and timing runs. */
export function launchOptionsOf(p: PreparedRun, mapping: RunOptions['mapping']) {
  return {
    entry: p.linked.module.entryPoints[0]!.function,
    size: p.host.launch,
    mapping: mapping ?? 'rows',
    rt: p.rt,
    specConstants: p.host.specConstants,
    reconvergence: p.reconvergence,
    itsPolicy: p.itsPolicy,
  };
}

/**
 * The prepared run's launches on the functional core, one per frame, back to back over the same
 * device memory: before frame f the host writes that frame's uniform buffers and push constants
 * and resets what the manifest resets (HostSetup.startFrame). `onFrame` sees each frame as it ends
 * (an instrumented run takes its dump there).
 */
export function runFrames(
  p: PreparedRun, opts: RunOptions, onProgress?: (invocationsDone: number, invocations: number) => void,
  onFrame?: (frame: FrameRun) => void,
): FrameRun[] {
  const program = p.program;
  const frames: FrameRun[] = [];
  const n = p.params.frames;
  const first = fastForward(p, opts);
  for (let f = first; f < n; f++) {
    const t0 = performance.now();
    p.host.startFrame(f);
    const progress = onProgress ? (done: number, total: number) => onProgress((f - first) * total + done, (n - first) * total) : undefined;
    const counters = runFunctional(program, p.host.resources, { ...launchOptionsOf(p, opts.mapping), ...(progress ? { onProgress: progress } : {}) });
    const frame: FrameRun = { frame: f, counters, rt: takeRtCounters(p.rt.counters), simulateMs: 0 };
    if (opts.frameImages && p.host.output) frame.image = copyImage(p.host.output);
    frame.simulateMs = performance.now() - t0;
    p.timings.simulate += frame.simulateMs;
    onFrame?.(frame);
    frames.push(frame);
  }
  return frames;
}

/**
 * Runs the frames before `opts.firstFrame` on the functional core (fast-forward): memory effects
 * kept; counters, the instrumentation buffer and the pixel-cost counters emptied after them, and
 * Zatel's pixel filter lifted while they run. Returns the first frame to measure.
 */
export function fastForward(p: PreparedRun, opts: Pick<RunOptions, 'firstFrame' | 'mapping'>): number {
  const first = opts.firstFrame ?? 0;
  if (!Number.isInteger(first) || first < 0 || first >= p.params.frames) {
    throw new RangeError(`firstFrame ${first}: the run has frames 0..${p.params.frames - 1}`);
  }
  if (first === 0) return 0;
  const filter = p.host.resources.buffers!.find((b) => b.set === PIXEL_FILTER_SET && b.binding === PIXEL_FILTER_BINDING);
  const mask = filter?.data.slice();
  filter?.data.fill(0xff);
  for (let f = 0; f < first; f++) {
    p.host.startFrame(f);
    runFunctional(p.program, p.host.resources, launchOptionsOf(p, opts.mapping));
    takeRtCounters(p.rt.counters);
    if (p.dumpBuffer) {
      const words = new Uint32Array(p.dumpBuffer.buffer, p.dumpBuffer.byteOffset, p.dumpBuffer.byteLength >> 2);
      p.dumpBuffer.fill(0, 0, Math.min(p.dumpBuffer.byteLength, 4 * (FIRST_ENTRY_WORD + words[WORDS_WRITTEN_WORD]!)));
    }
  }
  if (mask) filter!.data.set(mask);
  p.pixelCost?.fill(0);
  return first;
}

export async function runWorkload(
  workload: string, opts: RunOptions = {}, onProgress?: (invocationsDone: number, invocations: number) => void,
): Promise<RunResult> {
  const p = await prepareRun(workload, opts);
  const frames = runFrames(p, opts, onProgress);
  const result: RunResult = {
    manifest: p.manifest, params: p.params, linked: p.linked, scene: p.scene, accel: p.host.accels[0]!, image: p.host.output,
    counters: sumCounters(frames.map((f) => f.counters)), rt: sumRtCounters(frames.map((f) => f.rt)), timings: p.timings, frames,
  };
  if (p.dumpBuffer) result.dump = p.dumpBuffer;
  if (p.metadata) result.metadata = p.metadata;
  if (p.pixelCost) result.pixelCost = p.pixelCost;
  return result;
}
