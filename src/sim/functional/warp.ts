/**
 * One warp of the functional core: call frames, each with its SIMT reconvergence stack
 * (Vulkan-Sim baseline: immediate post-dominator reconvergence), and `step()`, which executes the
 * next piece of the selected split and reports it as a WarpStep.
 *
 * Invariants:
 * - `frames[i].stack` entries are {pc, piece, rpc, mask}; only the top entry of the top frame
 *   executes (stack-based reconvergence). The bottom entry of a frame has rpc = NO_RPC; a frame
 *   is finished when its bottom entry reaches EXIT, i.e. every lane that entered it returned
 *   (early returns wait at the function exit). An entry is popped when its pc equals its rpc.
 * - On a divergent branch the current entry moves to the branch's ipdom (or is replaced when its
 *   own rpc already is that ipdom) and one entry per taken successor other than the ipdom is
 *   pushed, the first successor on top (taken / first case runs first).
 * - `runnableSplits()` lists the splits a scheduler may pick; with stack reconvergence it is only
 *   the top entry. Under independent thread scheduling (launch option reconvergence 'its',
 *   Vulkan-Sim IV-B) the frames/stacks are unused: a SplitTable (its-splits.ts) holds every
 *   split, `runnableSplits()` returns all of them and `step(split)` runs the one asked for.
 * - Private memory and register files are allocated on the first step and dropped when the warp
 *   finishes, so a launch of many warps only holds the live ones.
 */
import type { Builtin } from '../../ir/module.js';
import type { RtRuntimeFn } from '../../ir/inst.js';
import { localAddress, type MemAccess, type RtLaneWork, type WarpStep } from '../warp-step.js';
import { EXIT, type BlockInfo, type FunctionInfo, type PieceInfo } from './compile-to-js.js';
import { SimError, formatSite } from './errors.js';
import type { LaunchState, SimtEntry, Frame } from './launch-state.js';
import type { PrivateMemory, Region } from './memory.js';
import { PRIVATE_BASE } from './layout.js';
import type { BoundResources } from './resources.js';
import { DEFAULT_SAMPLER, cubeFace, levelSize, readTexel, sampleImage, texelAddress, writeTexel } from './images.js';
import { formatPrintf } from './debug-printf.js';
import { countPiece, popcount, simtBranch } from './simt-stack.js';
import { replayTraces } from './trace-replay.js';
import { SplitTable, type ItsSplit, type CallPosition, type RunnableSplit } from './its-splits.js';
import type { ShaderMath } from './shader-math.js';

/** Base of the synthetic addresses reported for private (local) memory accesses. */


/** The last piece ended in a call or ret: whatever runs next is fetched from a new address. */
const JUMPED = -2;
export type { SimtEntry, Frame, RunnableSplit };

export interface WarpLanes {
  /** Lanes that exist (partial warps at the right edge are masked off). */
  mask: number;
  /** Linear launch index per lane (-1 for missing lanes). */
  thread: Float64Array;
  /** LaunchId / GlobalInvocationId per lane (x, y, z). */
  launchId: Uint32Array;
  localId: Uint32Array;
  localIndex: Uint32Array;
  launchSize: Uint32Array;
  workgroupId: Uint32Array;
  numWorkgroups: Uint32Array;
  subgroupId: number;
  numSubgroups: number;
  /** Linear index of the workgroup (selects its shared memory). */
  workgroupIndex: number;
}


export class Warp {
  // ---- fields read by the generated code (names are part of the codegen contract) ----
  readonly env: BoundResources;
  readonly math: ShaderMath;
  priv!: PrivateMemory;
  readonly threadInsts = new Float64Array(32);
  readonly thread: Float64Array;
  readonly watchdogLimit: number;
  recording: boolean;
  readonly addrBuf: Float64Array;
  readonly succ: Int32Array;
  readonly args: Float64Array;
  readonly spec: Float64Array;
  readonly LID: Uint32Array;
  readonly LOCID: Uint32Array;
  readonly LSIZE: Uint32Array;
  readonly WGID: Uint32Array;
  readonly NWG: Uint32Array;
  readonly LII: Uint32Array;
  readonly subgroupId: number;
  readonly numSubgroups: number;
  /** Address of the texel the last image access touched (level 0; for WarpStep.memory). */
  texAddr = 0;
  /** This warp's workgroup memory (compute shaders with shared variables). */
  readonly wgRegion: Region;
  /** Lane-serial engine: per-lane block traces, extra return leaves, call depth limit. */
  readonly traces: Int32Array[];
  readonly tlen: Int32Array;
  readonly lret: Float64Array;
  readonly largs: Float64Array;
  readonly maxDepth: number;
  // ---- warp state ----
  readonly frames: Frame[] = [];
  done = false;
  private started = false;
  /**
   * Under SIMT-stack reconvergence: the block position the last piece falls through to when it
   * ended in a branch, JUMPED when it ended in a PTX call or ret (PieceInfo.jumps), else -1.
   */
  private fallThrough = -1;
  /** The same per split under independent thread scheduling (a split that has not run yet has none). */
  private readonly splitFallThrough = new Map<number, number>();
  /** Independent thread scheduling: the split table (undefined under SIMT-stack reconvergence). */
  private its: SplitTable | undefined;
  private readonly texel = new Float64Array(4);
  private readonly sizeOut = new Uint32Array(4);
  private laneViews: Uint8Array[] = [];
  private laneViewGen = -1;

  constructor(
    readonly index: number,
    private readonly launch: LaunchState,
    private readonly entry: FunctionInfo,
    readonly lanes: WarpLanes,
    recordSteps: boolean,
  ) {
    this.env = launch.env;
    this.math = launch.math;
    this.thread = lanes.thread;
    this.watchdogLimit = launch.config.watchdogInstructions;
    this.recording = recordSteps;
    this.addrBuf = launch.addrBuf;
    this.args = launch.args;
    this.succ = launch.succ;
    this.spec = launch.spec;
    this.LID = lanes.launchId;
    this.LOCID = lanes.localId;
    this.LSIZE = lanes.launchSize;
    this.WGID = lanes.workgroupId;
    this.NWG = lanes.numWorkgroups;
    this.LII = lanes.localIndex;
    this.subgroupId = lanes.subgroupId;
    this.numSubgroups = lanes.numSubgroups;
    this.traces = launch.traces.lane;
    this.wgRegion = launch.workgroupRegion(lanes.workgroupIndex);
    this.tlen = launch.tlen;
    this.lret = launch.lret;
    this.largs = launch.largs;
    this.maxDepth = launch.config.maxRecursionDepth;
  }

  private initPrivate(): void {
    const st = this.launch.program.statics;
    this.priv = this.launch.takePrivate(st.privateGlobalBytes + this.entry.frameBytes);
    const tpl = this.launch.privateTemplate;
    for (let l = 0; l < 32; l++) this.priv.u32.set(tpl, l * this.priv.laneWords);
  }

  /**
   * Runs the warp with the lane-serial engine: each lane through the whole entry function, then
   * the lanes' block traces replayed through the SIMT stack for the counters.
   */
  runLaneSerial(): void {
    const fns = this.launch.program.laneFns;
    if (!fns) throw new SimError('internal', 'program has no lane-serial code');
    this.started = true;
    this.initPrivate();
    const st = this.launch.program.statics;
    const mask = this.lanes.mask;
    this.launch.counters.warps++;
    this.launch.counters.threads += popcount(mask);
    const f = fns[this.entry.index]!;
    for (let m = mask; m !== 0; m &= m - 1) {
      const l = 31 - Math.clz32(m & -m);
      this.tlen[l] = 0;
      f(this, l, 1, st.privateGlobalBytes);
    }
    replayTraces(this.launch.counters, this.launch.program.byId, this.entry, mask, this.launch.traces, this.tlen);
    this.done = true;
    this.launch.releasePrivate(this.priv);
  }

  private start(): void {
    this.started = true;
    this.initPrivate();
    const st = this.launch.program.statics;
    const entryFrame = this.launch.takeFrame(this.entry, this.lanes.mask, st.privateGlobalBytes);
    if (this.launch.config.reconvergence === 'its') {
      const policy = this.launch.config.itsPolicy === 'merge'
        ? undefined
        : { byId: this.launch.program.byId, reconvergeAfterTrace: this.launch.config.itsPolicy === 'barriers-all' };
      this.its = new SplitTable(entryFrame, this.lanes.mask, policy);
    }
    else this.frames.push(entryFrame);
    this.launch.counters.warps++;
    this.launch.counters.threads += popcount(this.lanes.mask);
  }


  /** True under independent thread scheduling: a scheduler may step any split (timing model). */
  get independentSplits(): boolean {
    return this.launch.config.reconvergence === 'its';
  }

  /** ITS: whether split `a` should wait at its block for split `b` (see SplitTable.waitsAtJoin). */
  waitsAtJoin(a: number, b: number): boolean {
    return this.its?.waitsAtJoin(a, b) ?? false;
  }

  /** The launch-wide counters this warp adds to. */
  launchCounters() {
    return this.launch.counters;
  }

  /**
   * Splits a scheduler may run next: stack reconvergence, only the top of the top frame (id 0);
   * independent thread scheduling, every split, in scheduling order (its-splits.ts).
   */
  runnableSplits(): RunnableSplit[] {
    if (!this.started) this.start();
    if (this.its) return this.its.runnable();
    if (!this.settle()) return [];
    const f = this.frames[this.frames.length - 1]!;
    const e = f.stack[f.stack.length - 1]!;
    return [{ id: 0, mask: e.mask >>> 0, fn: f.fn.id, pc: e.pc, piece: e.piece }];
  }

  /**
   * Pops reconverged entries and finished frames until the top entry has a piece to run.
   * Returns false when the warp is done.
   */
  private settle(): boolean {
    while (this.frames.length > 0) {
      const F = this.frames[this.frames.length - 1]!;
      const E = F.stack[F.stack.length - 1]!;
      if (E.pc === E.rpc) {
        F.stack.pop();
        continue;
      }
      if (E.pc !== EXIT) return true;
      if (F.stack.length > 1) throw new SimError('internal', `split reached the exit of @${F.fn.name} before its reconvergence point`);
      this.frames.pop();
      const caller = this.frames[this.frames.length - 1];
      if (!caller) {
        this.launch.releaseFrame(F);
        break;
      }
      const CE = caller.stack[caller.stack.length - 1]!;
      const callPiece = caller.fn.blocks[CE.pc]!.pieces[CE.piece - 1]!;
      if (callPiece.callResultSlot >= 0) {
        for (let k = 0; k < callPiece.callResultLeaves; k++) {
          const dst = (callPiece.callResultSlot + k) * 32;
          for (let m = E.mask; m !== 0; m &= m - 1) {
            const l = 31 - Math.clz32(m & -m);
            caller.regs[dst + l] = F.ret[k * 32 + l]!;
          }
        }
      }
      this.launch.releaseFrame(F);
    }
    this.done = true;
    this.launch.releasePrivate(this.priv);
    return false;
  }

  /**
   * Executes the next piece; returns its WarpStep (insts = 0 and done = true once finished).
   * `split` picks the split under independent thread scheduling (an id from runnableSplits();
   * default: the first in scheduling order, see its-splits.ts); ignored under stack reconvergence.
   */
  step(split?: number): WarpStep {
    const prev = this.recording;
    this.recording = true;
    try {
      return this.launch.config.reconvergence === 'its' ? this.execIts(true, split)! : this.exec(true)!;
    } finally {
      this.recording = prev;
    }
  }

  /** Runs the warp to completion without building WarpSteps (unless an observer wants them). */
  run(): void {
    const obs = this.launch.config.onStep;
    const its = this.launch.config.reconvergence === 'its';
    while (!this.done) {
      const s = its ? this.execIts(obs !== undefined, undefined) : this.exec(obs !== undefined);
      if (s && obs) obs.onStep(s);
    }
  }

  private exec(build: boolean): WarpStep | undefined {
    if (!this.started) this.start();
    if (!this.settle()) return build ? this.emptyStep() : undefined;
    const F = this.frames[this.frames.length - 1]!;
    const E = F.stack[F.stack.length - 1]!;
    const block = F.fn.blocks[E.pc]!;
    const piece = block.pieces[E.piece]!;
    const mask = E.mask;
    const first = E.piece === 0;
    const redirect = this.fallThrough === JUMPED || (this.fallThrough >= 0 && E.pc !== this.fallThrough);
    this.fallThrough = piece.jumps ? JUMPED : piece.end === 'branch' ? block.fallThrough : -1;
    piece.run(this, F, mask);
    countPiece(this.launch.counters, F.fn, block, piece, first, mask);
    this.launch.issued += piece.insts;
    const rt = piece.end === 'traverse' ? this.laneWork(mask) : undefined;
    const step = build ? this.makeStep(F, block, piece, mask, rt, redirect) : undefined;
    this.advance(F, E, block, piece);
    if (step) {
      this.settleQuietly();
      step.done = this.done;
    }
    return step;
  }

  /** One piece of one split under independent thread scheduling (see its-splits.ts). */
  private execIts(build: boolean, id: number | undefined): WarpStep | undefined {
    if (!this.started) this.start();
    const t = this.its!;
    const S = t.pick(id);
    if (!S) {
      if (t.empty) return build ? this.emptyStep() : undefined;
      throw new SimError('internal', `warp ${this.index} has no split ${id} (runnable: ${t.splits.map((s) => s.id).join(', ')})`);
    }
    const top = S.calls[S.calls.length - 1]!;
    const F = top.frame;
    const block = F.fn.blocks[top.pc]!;
    const piece = block.pieces[top.piece]!;
    const mask = S.mask;
    const fallThrough = this.splitFallThrough.get(S.id) ?? -1;
    const redirect = fallThrough === JUMPED || (fallThrough >= 0 && top.pc !== fallThrough);
    this.splitFallThrough.set(S.id, piece.jumps ? JUMPED : piece.end === 'branch' ? block.fallThrough : -1);
    piece.run(this, F, mask);
    countPiece(this.launch.counters, F.fn, block, piece, top.piece === 0, mask);
    this.launch.issued += piece.insts;
    const rt = piece.end === 'traverse' ? this.laneWork(mask) : undefined;
    const step = build ? this.makeStep(F, block, piece, mask, rt, redirect) : undefined;
    if (step) step.split = S.id;
    t.stepped(S.id, piece.end === 'traverse');
    this.advanceIts(t, S, top, block, piece);
    if (t.empty) {
      this.done = true;
      this.launch.releasePrivate(this.priv);
    }
    if (step) step.done = this.done;
    return step;
  }

  private advanceIts(t: SplitTable, S: ItsSplit, top: CallPosition, block: BlockInfo, piece: PieceInfo): void {
    switch (piece.end) {
      case 'call':
        top.piece++;
        S.calls.push({ frame: this.enterCall(top.frame, piece, S.mask, S.calls.length), pc: 0, piece: 0 });
        return;
      case 'traverse':
        top.piece++;
        t.settle(S);
        return;
      case 'return':
        top.pc = EXIT;
        t.leaveFrame(S);
        return;
      case 'branch':
        for (const s of t.branch(S, block, this.succ)) {
          if (s.calls[s.calls.length - 1]!.pc === EXIT) t.leaveFrame(s);
          else if (t.splits.includes(s)) t.settle(s);
        }
        return;
    }
  }



  /** The RT-unit work of a traversal the lanes of `mask` just recorded (timing runs only). */
  private laneWork(mask: number): RtLaneWork[] | undefined {
    const rt = this.launch.rt;
    if (!rt?.takeLaneWork) return undefined;
    const out: RtLaneWork[] = [];
    for (let m = mask; m !== 0; m &= m - 1) {
      const l = 31 - Math.clz32(m & -m);
      const w = rt.takeLaneWork(this.thread[l]!);
      if (w) out.push(w);
    }
    return out;
  }

  /** A frame for the callee of a `call` piece run by `mask` from frame F, with its arguments. */
  private enterCall(F: Frame, piece: PieceInfo, mask: number, depth: number): Frame {
    const callee = this.launch.program.byId.get(piece.callee!)!;
    if (depth >= this.launch.config.maxRecursionDepth) {
      const site = this.launch.program.sites[piece.callSite!]!;
      throw new SimError('recursion', `call depth exceeds maxRecursionDepth ${this.launch.config.maxRecursionDepth} calling @${callee.name}`, {
        site,
        lane: 31 - Math.clz32(mask & -mask),
        thread: this.thread[31 - Math.clz32(mask & -mask)]!,
      });
    }
    const pbase = F.pbase + F.fn.frameBytes;
    this.priv.ensure(pbase + callee.frameBytes);
    const nf = this.launch.takeFrame(callee, mask, pbase);
    let leaf = 0;
    for (const p of callee.params) {
      nf.regs.set(this.args.subarray(leaf * 32, (leaf + p.leaves) * 32), p.slot * 32);
      leaf += p.leaves;
    }
    return nf;
  }

  /** Settles so `done` is accurate for the step just taken. */
  private settleQuietly(): void {
    if (!this.done) this.settle();
  }

  private advance(F: Frame, E: SimtEntry, block: BlockInfo, piece: PieceInfo): void {
    switch (piece.end) {
      case 'call':
        E.piece++;
        this.frames.push(this.enterCall(F, piece, E.mask, this.frames.length));
        return;
      case 'traverse':
        E.piece++;
        return;
      case 'return':
        E.pc = EXIT;
        E.piece = 0;
        return;
      case 'branch':
        simtBranch(F.stack, E, block, this.succ);
        return;
    }
  }

  private emptyStep(): WarpStep {
    return { warp: this.index, fn: -1, block: -1, activeMask: 0, insts: 0, opClasses: new Uint8Array(0), deps: undefined, memory: [], rt: undefined, done: true, split: undefined, redirect: false };
  }

  private makeStep(F: Frame, block: BlockInfo, piece: PieceInfo, mask: number, rt: RtLaneWork[] | undefined, redirect = false): WarpStep {
    const memory: MemAccess[] = [];
    const sites = piece.memSites;
    for (let k = 0; k < sites.length; k++) {
      const s = sites[k]!;
      // Traversal_data reads exist only where the RT runtime places them.
      if (s.space === 'traversal' && this.launch.rt?.traversalDataAddress === undefined) continue;
      const addresses = this.launch.laneAddresses.take();
      for (let m = mask; m !== 0; m &= m - 1) {
        const l = 31 - Math.clz32(m & -m);
        const a = this.addrBuf[k * 32 + l]!;
        addresses[l] = a < 0 ? localAddress(this.index, (a - PRIVATE_BASE) >> 2, l) : a;
      }
      memory.push({ instIndex: s.instIndex, kind: s.kind, space: s.space, size: s.size, addresses, laneMask: mask >>> 0, wordMask: s.wordMask });
    }
    const step: WarpStep = {
      warp: this.index,
      fn: F.fn.id,
      block: block.id,
      activeMask: mask >>> 0,
      insts: piece.insts,
      opClasses: piece.opClasses,
      deps: piece.deps,
      memory,
      // Every field present, in one order: one object shape for the timing model's hot loops.
      rt,
      done: false,
      split: undefined,
      redirect,
    };
    return step;
  }

  // ---------------- services called by generated code ----------------

  private siteError(kind: 'outOfBounds' | 'watchdog' | 'unsupported' | 'rtRuntime', msg: string, site: number, lane: number, suffix?: string): SimError {
    return new SimError(kind, msg, { site: this.launch.program.sites[site]!, lane, thread: this.thread[lane]!, ...(suffix ? { suffix } : {}) });
  }

  /** Doubles lane l's trace buffer (lane-serial engine). */
  growTrace(l: number, used: number): Int32Array {
    this.tlen[l] = used;
    this.launch.traces.grow(this.tlen);
    return this.traces[l]!;
  }

  recursionHit(site: number, lane: number, callee: string): never {
    throw new SimError('recursion', `call depth exceeds maxRecursionDepth ${this.maxDepth} calling @${callee}`, {
      site: this.launch.program.sites[site]!, lane, thread: this.thread[lane]!,
    });
  }

  watchdogHit(site: number, lane: number): never {
    const s = this.launch.program.sites[site]!;
    throw new SimError('watchdog', `shader loops forever? ${formatSite(s)} lane ${lane} (thread ${this.thread[lane]}) exceeded ${this.watchdogLimit} instructions`);
  }

  oob(site: number, lane: number, addr: number, size: number, region: Region): never {
    const off = addr - region.base;
    throw this.siteError('outOfBounds', `out-of-bounds access to ${region.label}: byte offset ${off} (${size} bytes) of a ${region.size}-byte buffer`, site, lane);
  }

  indexOob(site: number, lane: number, index: number, length: number): never {
    throw this.siteError('outOfBounds', length < 0 ? `negative index ${index}` : `index ${index} out of bounds for length ${length}`, site, lane);
  }

  findRegion(addr: number, size: number, site: number, lane: number): Region {
    return this.env.space.find(addr, size, this.launch.program.sites[site]!, lane, this.thread[lane]!);
  }

  unlowered(op: string, site: number, lane: number): never {
    throw this.siteError('unsupported', `'${op}' must be lowered by the RT pipeline lowering before simulation`, site, lane);
  }

  /** `clock`: the timing model's cycle when one is attached, else the invocation's instruction count so far. */
  clockValue(threadCount: number): number {
    return this.launch.config.clock ? this.launch.config.clock() : threadCount;
  }

  printf(site: number, lane: number, format: string, leaves: number[], sizes: number[]): void {
    const s = this.launch.program.sites[site]!;
    this.launch.counters.printf.push({
      file: s.file, line: s.line, column: s.column, fn: s.fn, warp: this.index, lane, thread: this.thread[lane]!,
      text: formatPrintf(format, leaves, sizes),
    });
  }

  rtCall(fn: RtRuntimeFn, site: number, lane: number, args: number[]): number {
    const rt = this.launch.rt;
    if (!rt) throw this.siteError('rtRuntime', `rtCall ${fn} needs an RT runtime (LaunchOptions.rt)`, site, lane);
    if (this.laneViewGen !== this.priv.generation) {
      this.laneViews = [];
      this.laneViewGen = this.priv.generation;
    }
    const view = (this.laneViews[lane] ??= this.priv.laneBytes(lane, 0, 32));
    const r = rt.call(fn, this.thread[lane]!, args, { hitAttributes: view });
    return r ?? 0;
  }

  /** Address of the Vulkan-Sim Traversal_data member behind an RT built-in read, or -1 when the runtime has none. */
  traversalData(name: 'WorldRayDirection' | 'WorldRayOrigin', lane: number): number {
    const rt = this.launch.rt;
    return rt?.traversalDataAddress ? rt.traversalDataAddress(name, this.thread[lane]!) : -1;
  }

  rtBuiltin(name: Builtin, lane: number): readonly number[] {
    const rt = this.launch.rt;
    if (!rt) throw new SimError('rtRuntime', `built-in ${name} needs an RT runtime (LaunchOptions.rt)`, { lane, thread: this.thread[lane]! });
    return rt.builtin(name, this.thread[lane]!);
  }

  private image(h: number, site: number, lane: number) {
    const img = this.env.images[h & 65535];
    if (!img) throw this.siteError('outOfBounds', `image handle ${h & 65535} is not bound`, site, lane);
    return img;
  }

  imgRead(h: number, x: number, y: number, z: number, layer: number, lod: number, site: number, lane: number): Float64Array {
    const img = this.image(h, site, lane);
    if (!readTexel(img, lod, x, y, z, layer, this.texel)) {
      throw this.siteError('outOfBounds', `image read at (${x}, ${y}, ${z}, layer ${layer}, lod ${lod}) outside a ${img.levels[0]!.width}x${img.levels[0]!.height}x${img.levels[0]!.depth} image`, site, lane);
    }
    if (this.recording && lod === 0) this.texAddr = texelAddress(img, x, y, z, layer);
    return this.texel;
  }

  imgWrite(h: number, x: number, y: number, z: number, layer: number, texel: number[], site: number, lane: number): void {
    const img = this.image(h, site, lane);
    if (!writeTexel(img, x, y, z, layer, texel)) {
      throw this.siteError('outOfBounds', `image write at (${x}, ${y}, ${z}, layer ${layer}) outside a ${img.levels[0]!.width}x${img.levels[0]!.height}x${img.levels[0]!.depth} image`, site, lane);
    }
    if (this.recording) this.texAddr = texelAddress(img, x, y, z, layer);
  }

  imgSize(h: number, lod: number, site: number, lane: number): Uint32Array {
    const img = this.image(h, site, lane);
    const lvl = levelSize(img, lod);
    this.sizeOut[0] = lvl.width;
    this.sizeOut[1] = lvl.height;
    this.sizeOut[2] = lvl.depth;
    this.sizeOut[3] = img.layers;
    return this.sizeOut;
  }

  imgLevels(h: number, site: number, lane: number): number {
    return this.image(h, site, lane).levels.length;
  }

  private readonly cube = new Float64Array(3);

  /** Cube map sampling: face selection, then a 2D sample of layer 6*arrayLayer + face (clamped to the face). */
  imgSampleCube(h: number, x: number, y: number, z: number, arrayLayer: number, lod: number, site: number, lane: number): Float64Array {
    const img = this.image(h, site, lane);
    const s = h >>> 16 === 0 ? (img.sampler ?? DEFAULT_SAMPLER) : (this.env.samplers[h >>> 16] ?? DEFAULT_SAMPLER);
    cubeFace(x, y, z, this.cube);
    const faceSampler = { filter: s.filter, wrapU: 'clampToEdge', wrapV: 'clampToEdge', wrapW: 'clampToEdge' } as const;
    sampleImage(img, faceSampler, this.cube[1]!, this.cube[2]!, 0, Math.round(arrayLayer) * 6 + this.cube[0]!, lod, 2, this.texel);
    if (this.recording) this.texAddr = img.address;
    return this.texel;
  }

  /** LOD from explicit gradients: log2 of the longer gradient in texels of level 0. */
  imgGradLod(h: number, dx: number[], dy: number[], site: number, lane: number): number {
    const lvl = this.image(h, site, lane).levels[0]!;
    const size = [lvl.width, lvl.height, lvl.depth];
    let a = 0;
    let b = 0;
    dx.forEach((d, i) => (a += (d * size[i]!) ** 2));
    dy.forEach((d, i) => (b += (d * size[i]!) ** 2));
    const rho = Math.sqrt(Math.max(a, b));
    return rho > 0 ? Math.log2(rho) : 0;
  }

  /** textureGather: component `comp` of the four bilinear taps, in Vulkan order (i0,j1) (i1,j1) (i1,j0) (i0,j0). */
  imgGather(h: number, u: number, v: number, layer: number, comp: number, site: number, lane: number, ox: number, oy: number): Float64Array {
    const img = this.image(h, site, lane);
    const s = h >>> 16 === 0 ? (img.sampler ?? DEFAULT_SAMPLER) : (this.env.samplers[h >>> 16] ?? DEFAULT_SAMPLER);
    const lvl = img.levels[0]!;
    const x0 = Math.floor(u * lvl.width - 0.5) + ox;
    const y0 = Math.floor(v * lvl.height - 0.5) + oy;
    const taps: [number, number][] = [[x0, y0 + 1], [x0 + 1, y0 + 1], [x0 + 1, y0], [x0, y0]];
    const out = new Float64Array(4);
    const L = Math.min(Math.max(Math.round(layer), 0), img.layers - 1);
    const nearest = { ...s, filter: 'nearest' as const };
    taps.forEach(([x, y], i) => {
      sampleImage(img, nearest, (x + 0.5) / lvl.width, (y + 0.5) / lvl.height, 0, L, 0, 2, this.texel);
      out[i] = this.texel[comp & 3]!;
    });
    if (this.recording) this.texAddr = img.address;
    return out;
  }

  imgSample(h: number, u: number, v: number, w: number, layer: number, lod: number, dims: number, site: number, lane: number, ox = 0, oy = 0, oz = 0): Float64Array {
    const img = this.image(h, site, lane);
    const s = this.env.samplers[h >>> 16] ?? DEFAULT_SAMPLER;
    const sampler = h >>> 16 === 0 ? (img.sampler ?? DEFAULT_SAMPLER) : s;
    if (ox !== 0 || oy !== 0 || oz !== 0) {
      // Offsets are in texels of the sampled level.
      const lvl = img.levels[Math.min(Math.max(Math.round(lod), 0), img.levels.length - 1)]!;
      u += ox / lvl.width;
      v += oy / lvl.height;
      w += oz / lvl.depth;
    }
    sampleImage(img, sampler, u, v, w, layer, lod, dims, this.texel);
    if (this.recording) {
      const l0 = img.levels[0]!;
      const cl = (f: number, n: number) => Math.min(Math.max(Math.floor(f * n), 0), n - 1);
      this.texAddr = texelAddress(img, cl(u, l0.width), dims > 1 ? cl(v, l0.height) : 0, dims > 2 ? cl(w, l0.depth) : 0, Math.min(Math.max(Math.round(layer), 0), img.layers - 1));
    }
    return this.texel;
  }
}
