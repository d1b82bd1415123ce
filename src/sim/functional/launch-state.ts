/**
 * State shared by all warps of one launch: the program, bound resources, RT runtime, counters,
 * printf output, the issued-instruction clock, the spec-constant table, the private-memory
 * template (initialised private globals) and pools of register files for call frames.
 *
 * Invariant: warps only mutate it through counters / printf / clock in step order, so a launch run
 * twice with the same inputs produces identical counters and output.
 */
import type { Program } from './program.js';
import type { BoundResources } from './resources.js';
import type { RtRuntime } from './rt-runtime.js';
import { CounterSet } from './counters.js';
import type { StepObserver } from '../warp-step.js';
import type { FunctionInfo } from './compile-to-js.js';
import { LayoutTable, type LeafKind } from './layout.js';
import { shaderMath } from './shader-math.js';
import { PrivateMemory, makeRegion, type Region } from './memory.js';
import { LaneAddressArena } from './lane-address-arena.js';

/** Base address of workgroup memory regions (far above buffers, below the local-memory range). */
const WORKGROUP_BASE = 2 ** 42;

/**
 * Per-lane decision traces of the lane-serial engine in one flat buffer (lane l owns
 * [l*cap, (l+1)*cap)); `lane[l]` are views the generated code writes through. Growing doubles
 * `cap` for every lane and rebuilds the views.
 */
export class LaneTraces {
  flat: Int32Array;
  lane: Int32Array[];
  constructor(public cap: number) {
    this.flat = new Int32Array(cap * 32);
    this.lane = Array.from({ length: 32 }, (_, l) => this.flat.subarray(l * cap, (l + 1) * cap));
  }
  grow(used: Int32Array): void {
    const cap = this.cap * 2;
    const flat = new Int32Array(cap * 32);
    for (let l = 0; l < 32; l++) flat.set(this.flat.subarray(l * this.cap, l * this.cap + used[l]!), l * cap);
    this.cap = cap;
    this.flat = flat;
    for (let l = 0; l < 32; l++) this.lane[l] = flat.subarray(l * cap, (l + 1) * cap);
  }
}

/** rpc of a frame's bottom SIMT entry: never reached. */
export const NO_RPC = -2;

export interface SimtEntry {
  /** Block position in the frame's function, or EXIT. */
  pc: number;
  /** Next piece of the block to run. */
  piece: number;
  /** Reconvergence block position, EXIT, or NO_RPC for a frame's bottom entry. */
  rpc: number;
  /** Active lanes (int32 bit mask). */
  mask: number;
}

export interface Frame {
  fn: FunctionInfo;
  regs: Float64Array;
  ret: Float64Array;
  stack: SimtEntry[];
  /** Byte offset of this frame's variables in each lane's private memory. */
  pbase: number;
}

export interface LaunchConfig {
  maxRecursionDepth: number;
  watchdogInstructions: number;
  onStep?: StepObserver;
  /** Replaces the issued-instruction clock (e.g. the timing model's cycle counter). */
  clock?: () => number;
  /** 'ipdom' (SIMT stack, default) or 'its' (independent thread scheduling, its-splits.ts). */
  reconvergence?: Reconvergence;
  /** Under 'its': how splits reconverge (ItsPolicy); default 'barriers'. */
  itsPolicy?: ItsPolicy;
}

/**
 * How independent thread scheduling reconverges (its-barriers.ts):
 * - 'barriers' (default, as NVIDIA GPUs do): convergence barriers at post-dominators of divergent
 *   branches, except where a traceRay lies in the divergent region;
 * - 'barriers-all': a barrier at every divergent branch (its_reconverge_after_trace = 1);
 * - 'merge': the earlier model: no barriers; splits merge when they meet at the same block.
 */
export type ItsPolicy = 'barriers' | 'barriers-all' | 'merge';

export type Reconvergence = 'ipdom' | 'its';

export class LaunchState {
  readonly counters: CounterSet;
  /** Warp instructions issued so far in the launch. */
  issued = 0;
  readonly spec: Float64Array;
  /** Initial contents (32-bit words) of one lane's private-global area. */
  readonly privateTemplate: Uint32Array;
  private readonly pools = new Map<FunctionInfo, Frame[]>();
  readonly maxArgLeaves: number;
  /** Lane-serial engine scratch shared by the warps (they run one at a time). */
  readonly traces: LaneTraces = new LaneTraces(1024);
  readonly tlen = new Int32Array(32);
  /** Scratch of the warp-synchronous engine, shared because steps of different warps never interleave. */
  readonly succ = new Int32Array(64);
  readonly addrBuf: Float64Array;
  /** The per-lane address arrays of the steps the warps build (timing runs only). */
  readonly laneAddresses = new LaneAddressArena();
  readonly args: Float64Array;
  readonly lret: Float64Array;
  readonly largs: Float64Array;
  readonly maxMemSites: number;

  constructor(
    readonly program: Program,
    readonly env: BoundResources,
    readonly rt: RtRuntime | undefined,
    readonly config: LaunchConfig,
    specConstants: Map<number, number | boolean> | undefined,
  ) {
    this.counters = new CounterSet(program.functions.length, program.blockCount);
    const st = program.statics;
    this.spec = new Float64Array(program.module.constants.length);
    for (const sc of st.specConstants) {
      const v = specConstants?.get(sc.specId);
      this.spec[sc.index] = v === undefined ? sc.value : typeof v === 'boolean' ? (v ? 1 : 0) : v;
    }
    this.privateTemplate = new Uint32Array(Math.ceil(st.privateGlobalBytes / 4));
    const view = new DataView(this.privateTemplate.buffer);
    for (const { g, index } of st.globals()) {
      const off = st.privateOffset.get(index);
      if (off === undefined || g.init === undefined) continue;
      const ptrT = program.module.types.types[g.type]!;
      const pointee = ptrT.kind === 'pointer' ? ptrT.pointee : g.type;
      const lay = st.layout.layoutOf(pointee);
      const vals = st.constantNumbers(g.init, this.spec);
      lay.kinds.forEach((k, i) => writeScalar(view, off + lay.offsets[i]!, k, vals[i]!));
    }
    this.maxArgLeaves = Math.max(1, ...program.functions.map((f) => f.maxArgLeaves), ...program.functions.map((f) => f.retLeaves));
    this.lret = new Float64Array(Math.max(4, ...program.functions.map((f) => f.retLeaves)));
    this.largs = new Float64Array(Math.max(4, this.maxArgLeaves));
    let sites = 1;
    for (const f of program.functions) for (const b of f.blocks) for (const p of b.pieces) sites = Math.max(sites, p.memSites.length);
    this.maxMemSites = sites;
    this.addrBuf = new Float64Array(sites * 32);
    this.args = new Float64Array(this.maxArgLeaves * 32);
  }

  readonly math = shaderMath;

  /** A frame for `fn` (register file and return slots reused from finished frames). */
  takeFrame(fn: FunctionInfo, mask: number, pbase: number): Frame {
    const pool = this.pools.get(fn);
    const f = pool?.pop();
    if (f) {
      f.pbase = pbase;
      f.stack.length = 0;
      f.stack.push({ pc: 0, piece: 0, rpc: NO_RPC, mask });
      return f;
    }
    return {
      fn,
      regs: new Float64Array(Math.max(1, fn.regSlots) * 32),
      ret: new Float64Array(Math.max(1, fn.retLeaves) * 32),
      stack: [{ pc: 0, piece: 0, rpc: NO_RPC, mask }],
      pbase,
    };
  }

  releaseFrame(f: Frame): void {
    let pool = this.pools.get(f.fn);
    if (!pool) this.pools.set(f.fn, (pool = []));
    if (pool.length < 64) pool.push(f);
  }

  private readonly wgRegions = new Map<number, Region>();

  /**
   * The workgroup (shared) memory of workgroup `index`, created zeroed on first use. Placed at
   * WORKGROUP_BASE + index * size so accesses have distinct addresses for the timing model.
   */
  workgroupRegion(index: number): Region {
    if (this.program.statics.workgroupBytes === 0) index = -1;
    let r = this.wgRegions.get(index);
    if (!r) {
      const bytes = Math.max(16, this.program.statics.workgroupBytes);
      if (this.wgRegions.size >= 4096) this.wgRegions.clear();
      r = makeRegion(WORKGROUP_BASE + Math.max(index, 0) * bytes, new Uint8Array(bytes), `workgroup memory of workgroup ${index}`);
      this.wgRegions.set(index, r);
    }
    return r;
  }

  /** Private memory of a finished warp, reused by the next one (runFunctional runs warps one by one). */
  private spare: PrivateMemory | undefined;

  takePrivate(bytes: number): PrivateMemory {
    const p = this.spare;
    this.spare = undefined;
    if (p) {
      p.ensure(bytes);
      return p;
    }
    return new PrivateMemory(bytes);
  }

  releasePrivate(p: PrivateMemory): void {
    this.spare = p;
  }
}

function writeScalar(view: DataView, off: number, k: LeafKind, v: number): void {
  switch (k) {
    case 'f32':
      view.setFloat32(off, v, true);
      return;
    case 'i32':
      view.setInt32(off, v, true);
      return;
    case 'u32':
    case 'bool':
      view.setUint32(off, v >>> 0, true);
      return;
    case 'f64':
      view.setFloat64(off, v, true);
      return;
    default:
      view.setUint32(off, shaderMath.lo32u(v), true);
      if (LayoutTable.leafBytes(k) === 8) view.setUint32(off + 4, shaderMath.hi32u(v), true);
  }
}
