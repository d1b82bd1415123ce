/**
 * Launching a program: binding resources, mapping launch invocations to warps (Vulkan-Sim III-B5)
 * and running them.
 *
 * Mapping (invariants):
 * - RT stages, 'rows' (default): block (32,1,1), grid (ceil(w/32), h, d); warp k covers 32
 *   horizontal pixels starting from the top left, row by row; lanes past the right edge are
 *   masked off. 'tiles4x8': each warp covers a 4-wide x 8-tall tile (lane = y%8*4 + x%4), tiles
 *   row-major; lanes outside the image are masked off. 'nvidia': the tile an H100 uses for the
 *   launch's height (`nvidiaTile`: 16x2 up to height 2, 8x4 up to 4, then 4x8, and 8x4 for heights
 *   4 mod 8), lane = (y % th) * tw + x % tw, tiles row-major, edge warps partly empty.
 * - Compute: `size` is the workgroup count; each workgroup of localSize invocations is split into
 *   warps of 32 consecutive LocalInvocationIndex values; the last warp of a group may be partial.
 * - The linear launch index (`thread`) is x + y*W + z*W*H over the whole launch (W, H in
 *   invocations), the same for both mappings.
 */
import type { FunctionId } from '../../ir/inst.js';
import { warpTile, type LaunchMapping } from './warp-mapping.js';
import type { StepObserver } from '../warp-step.js';
import type { Program } from './program.js';
import { bindResources, type Resources } from './resources.js';
import type { RtRuntime } from './rt-runtime.js';
import { LaunchState, type ItsPolicy, type Reconvergence } from './launch-state.js';
import { Warp, type WarpLanes } from './warp.js';
import type { Counters } from './counters.js';
import { SimError } from './errors.js';

export interface LaunchOptions {
  entry: FunctionId;
  /** RT: launch width, height, depth. Compute: workgroup counts. */
  size: [number, number, number];
  mapping?: LaunchMapping;
  rt?: RtRuntime;
  /** Maximum call-frame depth (entry = 1). Default 64. */
  maxRecursionDepth?: number;
  /** Per-thread instruction limit. Default 10,000,000. */
  watchdogInstructions?: number;
  onStep?: StepObserver;
  specConstants?: Map<number, number | boolean>;
  /**
   * 'warp': warp-synchronous pieces (what the timing model steps). 'laneSerial': each lane through
   * the whole function, counters from replaying the lanes' block traces (much faster; only for
   * programs without subgroup ops, printf and atomics). 'auto' (default): laneSerial when the
   * program allows it and neither an onStep observer nor a clock source is given.
   */
  engine?: 'auto' | 'warp' | 'laneSerial';
  /** Source of `clock` values (the timing model's cycle); default: instructions the invocation executed before the clock. */
  clock?: () => number;
  /** RT launches: called after every 64 warps and at the end with the invocations (pixels) simulated so far, for a progress display. */
  onProgress?: (invocationsDone: number, invocations: number) => void;
  /**
   * 'ipdom' (default): SIMT stack, reconvergence at immediate post-dominators. 'its': independent
   * thread scheduling (Vulkan-Sim IV-B): splits run independently and merge opportunistically;
   * always runs on the warp engine.
   */
  reconvergence?: Reconvergence;
  /** Under 'its': convergence barriers as NVIDIA GPUs place them (default), everywhere, or none (launch-state.ts ItsPolicy). */
  itsPolicy?: ItsPolicy;
}

function lanesFor(
  mask: number,
  fill: (lane: number, out: { x: number; y: number; z: number; lx: number; ly: number; lz: number; li: number; thread: number }) => boolean,
  launchSize: [number, number, number],
  wg: [number, number, number],
  nwg: [number, number, number],
  subgroupId: number,
  numSubgroups: number,
  into: WarpLanes | undefined,
): WarpLanes {
  const thread = into ? into.thread.fill(-1) : new Float64Array(32).fill(-1);
  const launchId = into ? into.launchId.fill(0) : new Uint32Array(96);
  const localId = into ? into.localId.fill(0) : new Uint32Array(96);
  const localIndex = into ? into.localIndex.fill(0) : new Uint32Array(32);
  const o = { x: 0, y: 0, z: 0, lx: 0, ly: 0, lz: 0, li: 0, thread: 0 };
  for (let l = 0; l < 32; l++) {
    if (!fill(l, o)) {
      mask &= ~(1 << l);
      continue;
    }
    thread[l] = o.thread;
    launchId[l * 3] = o.x;
    launchId[l * 3 + 1] = o.y;
    launchId[l * 3 + 2] = o.z;
    localId[l * 3] = o.lx;
    localId[l * 3 + 1] = o.ly;
    localId[l * 3 + 2] = o.lz;
    localIndex[l] = o.li;
  }
  const workgroupIndex = wg[0] + wg[1] * nwg[0] + wg[2] * nwg[0] * nwg[1];
  if (into) {
    into.mask = mask;
    into.launchSize.set(launchSize);
    into.workgroupId.set(wg);
    into.numWorkgroups.set(nwg);
    into.subgroupId = subgroupId;
    into.numSubgroups = numSubgroups;
    into.workgroupIndex = workgroupIndex;
    return into;
  }
  return {
    mask,
    thread,
    launchId,
    localId,
    localIndex,
    launchSize: Uint32Array.from(launchSize),
    workgroupId: Uint32Array.from(wg),
    numWorkgroups: Uint32Array.from(nwg),
    subgroupId,
    numSubgroups,
    workgroupIndex,
  };
}

/**
 * Lane layouts of every warp of the launch, in warp order (lazy: one at a time). With `reuse`, every
 * warp's layout is written into the same arrays (one object yielded again and again): only for a
 * caller that is done with a warp before it asks for the next.
 */
export function* warpLanes(program: Program, opts: LaunchOptions, reuse = false): Generator<WarpLanes> {
  let into: WarpLanes | undefined;
  const next = (l: WarpLanes): WarpLanes => (reuse ? (into ??= l) : l);
  const [w, h, d] = opts.size;
  const ep = program.module.entryPoints.find((e) => e.function === opts.entry);
  if (ep?.stage === 'compute') {
    const [lx, ly, lz] = ep.localSize ?? [1, 1, 1];
    const L = lx * ly * lz;
    const per = Math.ceil(L / 32);
    const W = w * lx;
    const H = h * ly;
    for (let gz = 0; gz < d; gz++) for (let gy = 0; gy < h; gy++) for (let gx = 0; gx < w; gx++) {
      for (let s = 0; s < per; s++) {
        yield next(lanesFor(
          -1,
          (l, o) => {
            const li = s * 32 + l;
            if (li >= L) return false;
            o.li = li;
            o.lx = li % lx;
            o.ly = Math.floor(li / lx) % ly;
            o.lz = Math.floor(li / (lx * ly));
            o.x = gx * lx + o.lx;
            o.y = gy * ly + o.ly;
            o.z = gz * lz + o.lz;
            o.thread = o.x + o.y * W + o.z * W * H;
            return true;
          },
          [W, H, d * lz],
          [gx, gy, gz],
          [w, h, d],
          s,
          per,
          into,
        ));
      }
    }
    return;
  }
  const [tw, th] = warpTile(opts.mapping, h);
  const cols = Math.ceil(w / tw);
  const rows = Math.ceil(h / th);
  for (let z = 0; z < d; z++) for (let ty = 0; ty < rows; ty++) for (let tx = 0; tx < cols; tx++) {
    yield next(lanesFor(
      -1,
      (l, o) => {
        o.x = tx * tw + (l % tw);
        o.y = ty * th + Math.floor(l / tw);
        o.z = z;
        if (o.x >= w || o.y >= h) return false;
        o.lx = l;
        o.li = l;
        o.thread = o.x + o.y * w + z * w * h;
        return true;
      },
      [w, h, d],
      [tx, ty, z],
      [cols, rows, d],
      0,
      1,
      into,
    ));
  }
}

function prepare(program: Program, resources: Resources, opts: LaunchOptions): LaunchState {
  const entry = program.byId.get(opts.entry);
  if (!entry) throw new SimError('resource', `entry function %${opts.entry} is not in the program`);
  if (opts.size.some((s) => !Number.isInteger(s) || s < 0)) throw new SimError('resource', `launch size ${JSON.stringify(opts.size)} must be non-negative integers`);
  const env = bindResources(program.module, resources, program.statics.usedGlobals);
  const cfg = {
    maxRecursionDepth: opts.maxRecursionDepth ?? 64,
    watchdogInstructions: opts.watchdogInstructions ?? 10_000_000,
    ...(opts.onStep ? { onStep: opts.onStep } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.reconvergence === 'its' ? { reconvergence: 'its' as const } : {}),
    ...(opts.itsPolicy ? { itsPolicy: opts.itsPolicy } : {}),
  };
  if (opts.reconvergence !== undefined && opts.reconvergence !== 'ipdom' && opts.reconvergence !== 'its') {
    throw new SimError('resource', `reconvergence must be 'ipdom' or 'its', got '${String(opts.reconvergence)}'`);
  }
  return new LaunchState(program, env, opts.rt, cfg, opts.specConstants);
}

/** Every warp of the launch, for the timing model (it calls `warp.step()` in its own order). */
export function createWarps(program: Program, resources: Resources, opts: LaunchOptions): Warp[] {
  const state = prepare(program, resources, opts);
  const entry = program.byId.get(opts.entry)!;
  const warps: Warp[] = [];
  for (const lanes of warpLanes(program, opts)) warps.push(new Warp(warps.length, state, entry, lanes, true));
  return warps;
}

/** Runs every warp to completion in warp order; returns the counters (and printf output). */
export function runFunctional(program: Program, resources: Resources, opts: LaunchOptions): Counters {
  const state = prepare(program, resources, opts);
  const entry = program.byId.get(opts.entry)!;
  const engine = opts.engine ?? 'auto';
  const its = opts.reconvergence === 'its';
  if (engine === 'laneSerial' && (!program.laneFns || opts.onStep || opts.clock || its)) {
    throw new SimError('resource', 'the lane-serial engine needs a program without subgroup ops, debugPrintf and atomics, no onStep observer or clock source, and SIMT-stack reconvergence');
  }
  // The lane-serial replay reconstructs SIMT-stack order; ITS interleavings need the warp engine.
  const serial = program.laneFns !== undefined && !opts.onStep && !opts.clock && !its && engine !== 'warp';
  let i = 0;
  // Serial warps finish before the next starts and no observer sees them: their lanes can share arrays.
  for (const lanes of warpLanes(program, opts, serial)) {
    if (lanes.mask === 0) {
      i++;
      continue;
    }
    const w = new Warp(i++, state, entry, lanes, opts.onStep !== undefined);
    if (serial) w.runLaneSerial();
    else w.run();
    if (opts.onProgress && i % 64 === 0) opts.onProgress(state.counters.threads, opts.size[0] * opts.size[1] * opts.size[2]);
  }
  opts.onProgress?.(state.counters.threads, opts.size[0] * opts.size[1] * opts.size[2]);
  return state.counters.snapshot(
    program.functions.map((f) => f.name),
    program.blockNames,
  );
}

/** Counters of a launch driven through `createWarps` (call after the warps finished). */
export function countersOf(warps: readonly Warp[], program: Program): Counters | undefined {
  const w = warps[0];
  if (!w) return undefined;
  return w.launchCounters().snapshot(program.functions.map((f) => f.name), program.blockNames);
}
