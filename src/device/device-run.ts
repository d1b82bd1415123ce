/**
 * `vvision device run|instrument`: the workload's own pipeline on a real Vulkan device. Each run
 * (uninstrumented, or once per utility) is prepared exactly as the simulator prepares it
 * (`prepareRun`: compile, instrument, host setup), resolved into a device bundle, run by the
 * native host, and its outputs read back into the simulator's result shapes: the rendered image,
 * the instrumentation dump (Fig. 6 layout) with its metadata, and the trace dispatch's timestamps.
 * Nothing is simulated; analytics then read the device's dumps like the simulator's.
 *
 * Multi-frame runs (`frames` > 1, issue 24): the host runs the launches in order over the same
 * resources (the bundle carries each frame's host work), each timed once; `frames` holds every
 * frame's image and dump, and `image` / `dump` are the last frame's.
 *
 * A frame range (`firstFrame`, `--frame-range first..last`) as the simulator has it: frames before
 * `first` run on the device too (their effects on images and buffers are what the measured frames
 * start from; the simulator fast-forwards them on its functional core) but are not measured:
 * `frames`, the trace times and the dumps are those of frames first..last only (one measured frame:
 * no `frames`, as the simulator writes no per-frame outputs then).
 *
 * Buffer sizing (`bufferSize` 'auto'): a first launch with INITIAL_DEVICE_BUFFER_WORDS; if the
 * header says more words were reserved than the buffer held, one rerun with that count plus a
 * margin (bufferWordsWithMargin), since a GPU's next launch may run more invocations.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDump, type Dump } from '../analytics/index.js';
import { prepareRun, sharedPreparation, type PreparedRun, type RunOptions } from '../driver/run-workload.js';
import { bufferWordsWithMargin, type InstrumentationMetadata } from '../primitives/buffer-layout.js';
import { InstrumentationBufferTooSmallError } from '../analytics/dump-reader.js';
import type { SimImage, TexelData } from '../sim/functional/images.js';
import type { Utility } from '../utilities/utility.js';
import { writeDeviceBundle } from './device-bundle.js';
import { runNativeHost, type HostRunOptions } from './native-host.js';

export const INITIAL_DEVICE_BUFFER_WORDS = 1 << 22;

/** device.json as the native host writes it. */
export interface DeviceInfo {
  device: string;
  driver: string;
  driverInfo: string;
  vendorId: number;
  deviceId: number;
  apiVersion: string;
  subgroupSize: number;
  /** The subgroup size the pipeline ran with (the required size where the device could give it). */
  ranSubgroupSize: number;
  requestedSubgroupSize: number;
  /** VkPhysicalDeviceSubgroupProperties::supportedStages / supportedOperations (hosts before these fields: absent). */
  subgroupSupportedStages?: number;
  subgroupSupportedOperations?: number;
  /**
   * Whether every ray tracing stage is among supportedStages: where it is not (lavapipe), the
   * instrumentation's ballots run in stages Vulkan makes no promise for (they do run on lavapipe).
   */
  subgroupInRayTracingStages?: boolean;
  timestamps: boolean;
  /** Launches in sequence (1: a single frame, repeated `traceMs.length` times). */
  frames?: number;
  /** Trace dispatch time of each repetition, ms (vkCmdWriteTimestamp around vkCmdTraceRaysKHR). */
  traceMs: number[];
  medianTraceMs: number;
  validation: boolean;
  /** Warnings and errors of the validation layer (with --validate); errors alone. */
  validationMessages: number;
  validationErrors: number;
}

export interface DeviceLaunch {
  prepared: PreparedRun;
  info: DeviceInfo;
  image?: SimImage;
  /** Instrumented: the buffer as saved (header + words written, or the whole buffer when it overflowed). */
  dumpBytes?: Uint8Array;
  dump?: Dump;
  metadata?: InstrumentationMetadata;
  bufferWords?: number;
  rerunFrom?: number;
  /** Multi-frame runs: each measured frame's outputs (frame index from 0), the last one's also in `image` / `dump`. */
  frames?: DeviceFrame[];
  /** With a frame range: the first measured frame (earlier frames ran, unmeasured). */
  firstFrame?: number;
  /** Multi-frame instrumented runs: the frame `dump` is (the last unless `analyseFrame` said otherwise). */
  analysedFrame?: number;
}

export interface DeviceFrame {
  frame: number;
  traceMs: number;
  image?: SimImage;
  dumpBytes?: Uint8Array;
  dump?: Dump;
}

export interface DeviceRunOptions extends RunOptions, HostRunOptions {
  bufferSize?: number | 'auto';
  /** Multi-frame instrumented runs: the frame whose dump `dump` / `dumpBytes` hold (default the last), as the simulator's `analyseFrame`. */
  analyseFrame?: number;
  /** Keep the bundle and raw outputs in this directory instead of a temporary one. */
  keepBundle?: string;
}

/** One launch of `workload` (instrumented with `utility` when given) on the device. */
export async function launchOnDevice(workload: string, utility: Utility | undefined, opts: DeviceRunOptions = {}): Promise<DeviceLaunch> {
  const shared = await sharedPreparation(workload);
  if (opts.firstFrame !== undefined && (!Number.isInteger(opts.firstFrame) || opts.firstFrame < 0)) throw new RangeError(`firstFrame ${opts.firstFrame}: expected a frame index >= 0`);
  const auto = opts.bufferSize === undefined || opts.bufferSize === 'auto';
  let words = auto ? INITIAL_DEVICE_BUFFER_WORDS : (opts.bufferSize as number);
  let rerunFrom: number | undefined;
  for (;;) {
    const prepared = await prepareRun(workload, utility ? { ...opts, instrument: [utility], bufferWords: words } : opts, undefined, shared);
    const launch = runBundle(prepared, opts);
    if (!utility) return launch;
    const metadata = { ...prepared.metadata!, warpSize: launch.info.ranSubgroupSize };
    if (launch.info.subgroupInRayTracingStages === false && metadata.sites.some((s) => s.primitive === 'WarpUpdate') && rerunFrom === undefined) {
      const say = opts.onWarning ?? ((m: string) => process.stderr.write(`warning: ${m}\n`));
      say(`${launch.info.device} does not list the ray tracing stages among its subgroup-supported stages (VkPhysicalDeviceSubgroupProperties::supportedStages = 0x${(launch.info.subgroupSupportedStages ?? 0).toString(16)}): ${utility.name}'s ballots run where Vulkan promises nothing about subgroup operations`);
    }
    const wholes = launch.frames ? launch.frames.map((f) => f.dumpBytes!) : [launch.dumpBytes!];
    const probes = wholes.map((w) => readDump(w, metadata, { allowOverflow: true }));
    const worst = probes.reduce((a, b) => (b.requiredWords > a.requiredWords ? b : a));
    if (worst.overflowed && auto && rerunFrom === undefined) {
      rerunFrom = words;
      words = bufferWordsWithMargin(worst.requiredWords);
      continue;
    }
    if (worst.overflowed) {
      throw new InstrumentationBufferTooSmallError(worst.requiredWords, worst.capacityWords, bufferWordsWithMargin(worst.requiredWords), undefined);
    }
    const cut = wholes.map((w, k) => w.subarray(0, probes[k]!.requiredWords * 4));
    const dumpBytes = cut[cut.length - 1]!;
    const out: DeviceLaunch = { ...launch, dumpBytes, dump: readDump(dumpBytes, metadata), metadata, bufferWords: words };
    if (launch.frames) {
      out.frames = launch.frames.map((f, k) => ({ ...f, dumpBytes: cut[k]!, dump: readDump(cut[k]!, metadata) }));
      // The utilities analyse one frame: the last unless `analyseFrame` says otherwise (as the simulator).
      const pick = opts.analyseFrame ?? out.frames[out.frames.length - 1]!.frame;
      const chosen = out.frames.find((f) => f.frame === pick);
      if (!chosen) throw new RangeError(`analyseFrame ${pick}: the run measured frames ${out.frames[0]!.frame}..${out.frames[out.frames.length - 1]!.frame}`);
      out.dump = chosen.dump;
      out.dumpBytes = chosen.dumpBytes;
      out.analysedFrame = pick;
    }
    if (rerunFrom !== undefined) out.rerunFrom = rerunFrom;
    return out;
  }
}

function runBundle(prepared: PreparedRun, opts: DeviceRunOptions): DeviceLaunch {
  const first = opts.firstFrame ?? 0;
  if (first >= prepared.params.frames) throw new RangeError(`firstFrame ${first}: the run has frames 0..${prepared.params.frames - 1}`);
  return measuredFrames(runWholeBundle(prepared, opts), first);
}

/** The launch as the frames first.. of it: frames, trace times (device.json's traceMs and median) and dumps of those frames only. */
export function measuredFrames(launch: DeviceLaunch, first: number): DeviceLaunch {
  if (first === 0 || !launch.frames) return launch;
  const kept = launch.frames.filter((f) => f.frame >= first);
  const traceMs = kept.map((f) => f.traceMs);
  const out: DeviceLaunch = { ...launch, info: { ...launch.info, traceMs, medianTraceMs: median(traceMs) }, firstFrame: first };
  if (kept.length > 1) out.frames = kept;
  else delete out.frames;
  return out;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? 0 : n % 2 === 1 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}

function runWholeBundle(prepared: PreparedRun, opts: DeviceRunOptions): DeviceLaunch {
  const dir = opts.keepBundle ?? mkdtempSync(join(tmpdir(), 'vvision-device-'));
  try {
    const bundle = writeDeviceBundle(prepared, join(dir, 'bundle'));
    const outDir = join(dir, 'out');
    runNativeHost(bundle.dir, outDir, opts);
    const info = JSON.parse(readFileSync(join(outDir, 'device.json'), 'utf8')) as DeviceInfo;
    const launch: DeviceLaunch = { prepared, info };
    if (bundle.image && prepared.host.output) launch.image = imageFrom(prepared.host.output, readFileSync(join(outDir, 'image.bin')));
    if (bundle.dumpWords !== undefined) launch.dumpBytes = new Uint8Array(readFileSync(join(outDir, 'dump.bin')));
    if (bundle.frames > 1) {
      launch.frames = [];
      for (let f = 0; f < bundle.frames; f++) {
        const at = (out: string) => join(outDir, `${out}.f${String(f).padStart(3, '0')}.bin`);
        const frame: DeviceFrame = { frame: f, traceMs: info.traceMs[f] ?? 0 };
        if (bundle.image && prepared.host.output) frame.image = imageFrom(prepared.host.output, readFileSync(at('image')));
        if (bundle.dumpWords !== undefined) frame.dumpBytes = new Uint8Array(readFileSync(at('dump')));
        launch.frames.push(frame);
      }
    }
    return launch;
  } finally {
    if (!opts.keepBundle) rmSync(dir, { recursive: true, force: true });
  }
}

/** A SimImage like the simulator's output, holding the device's texels. */
function imageFrom(like: SimImage, bytes: Buffer): SimImage {
  const level = like.levels[0]!;
  const Ctor = level.data.constructor as new (b: ArrayBuffer) => TexelData;
  const copy = new Uint8Array(level.data.byteLength);
  copy.set(bytes.subarray(0, copy.byteLength));
  return { ...like, levels: [{ ...level, data: new Ctor(copy.buffer) }] };
}
