/**
 * Device runs for the SDK: the workload's own pipeline on a real Vulkan device (a GPU, or Mesa's
 * lavapipe) through the native host (src/device), as `vvision device run|instrument` runs it. An
 * instrumented run launches once per utility (each with its own buffer) and returns each device
 * dump as a `DumpInput`, which `analyse` reads exactly as it reads a simulation's. A multi-frame
 * workload runs all its frames; `frames` gives each frame's image, dump and trace time.
 * @throws DeviceUnavailableError when no compiler, Vulkan headers, loader or ray tracing device is
 *   present (the message says which); DeviceRunError when the host fails.
 */
import type { Dump } from '../analytics/dump-reader.js';
import { launchOnDevice, type DeviceFrame, type DeviceInfo, type DeviceRunOptions } from '../device/device-run.js';
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { RunParameters } from '../sim/host/build-resources.js';
import type { SimImage } from '../sim/functional/images.js';
import { toUtility, type DumpInput, type UtilityRef } from './pipeline.js';

export { listDevices, DeviceRunError, DeviceUnavailableError } from '../device/native-host.js';
export type { DeviceFrame, DeviceInfo } from '../device/device-run.js';

export interface DeviceOptions extends Omit<DeviceRunOptions, 'keepBundle' | 'instrument' | 'bufferWords'> {
  /** Utilities to instrument with (one launch each); none: the uninstrumented pipeline. */
  instrument?: UtilityRef | readonly UtilityRef[];
  /** Keep the device bundle and the host's raw outputs in this directory. */
  keepBundle?: string;
}

/** One utility's launch on the device. */
export interface DeviceDump extends DumpInput {
  readonly utility: string;
  readonly dump: Dump;
  readonly metadata: InstrumentationMetadata;
  /** Buffer size the dump came from, in 32-bit words. */
  readonly bufferWords: number;
  /** Set when the launch ran again: the size (words) of the first buffer, which was too small. */
  readonly rerunFrom?: number;
  /** The device and its trace dispatch times for this launch. */
  readonly device: DeviceInfo;
  /** Multi-frame workloads (issue 24): each frame's dump and trace time, in frame order (`dump` above is the first frame's). */
  readonly frames?: readonly DeviceFrame[];
}

export interface DeviceRun {
  readonly workload: string;
  readonly params: RunParameters;
  /** The device, subgroup size and median trace dispatch time (of the first launch). */
  readonly device: DeviceInfo;
  /** The output image the device wrote (of the first launch). */
  readonly image?: SimImage;
  /** One per utility when instrumented; empty otherwise. */
  readonly dumps: readonly DeviceDump[];
  /** Multi-frame workloads (issue 24): each frame's image and trace time (of the first launch), in frame order. */
  readonly frames?: readonly DeviceFrame[];
}

/** Runs `workload` (a built-in name or a workload.json path) on a Vulkan device. */
export async function runOnDevice(workload: string, options: DeviceOptions = {}): Promise<DeviceRun> {
  const { instrument, ...opts } = options;
  const utilities = instrument === undefined ? [] : (Array.isArray(instrument) ? instrument : [instrument]) as readonly UtilityRef[];
  const launches = utilities.length === 0
    ? [{ utility: undefined, launch: await launchOnDevice(workload, undefined, opts) }]
    : await sequentially(utilities.map(toUtility), async (u) => ({ utility: u, launch: await launchOnDevice(workload, u, opts) }));
  const first = launches[0]!.launch;
  const dumps = launches.flatMap(({ utility, launch }): DeviceDump[] => utility === undefined ? [] : [{
    utility: utility.name, dump: launch.dump!, metadata: launch.metadata!, bufferWords: launch.bufferWords!, device: launch.info,
    launch: { width: launch.prepared.params.width, height: launch.prepared.params.height }, workload: launch.prepared.manifest.name,
    ...(launch.rerunFrom !== undefined ? { rerunFrom: launch.rerunFrom } : {}),
    ...(launch.frames ? { frames: launch.frames } : {}),
  }]);
  return {
    workload: first.prepared.manifest.name, params: first.prepared.params, device: first.info, dumps,
    ...(first.image ? { image: first.image } : {}),
    ...(first.frames ? { frames: first.frames } : {}),
  };
}

/** One device launch at a time: the host owns the device while it runs. */
async function sequentially<T, R>(items: readonly T[], f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) out.push(await f(item));
  return out;
}
