/**
 * A small reference interpreter for the IR subset the V-Vision primitives and the hand-built test
 * shaders use, so primitive and pass tests check what the emitted IR DOES (entries in the buffer)
 * and not only its shape. Not the simulator: one function, one warp at a time, SIMT stack with
 * reconvergence at immediate post-dominators, lanes in lane order for atomics.
 *
 * Supported: load (builtin uvec3 inputs; other globals read 0), extract, binary add/mul/sub/rem, compare, atomic add,
 * arrayLength/accessChain/store on the instrumentation buffer, subgroup elect/ballot/broadcastFirst,
 * phi, branch, condBranch, return, traceRay (a no-op that counts), call (not supported).
 */
import { buildCfg } from '../../src/ir/cfg.js';
import { immediatePostDominator, postDominatorTree } from '../../src/ir/dominators.js';
import type { BlockId, Inst, ValueId } from '../../src/ir/inst.js';
import type { Function, Module } from '../../src/ir/module.js';

type Val = number | number[];

export interface WarpRun {
  /** Thread-work coordinates per lane: launch ids (x, y, z); lanes absent from the array are inactive. */
  launchIds: [number, number, number][];
  launchSize: [number, number, number];
}

export class WarpInterpreter {
  /** How many times each traceRay instruction ran, per lane execution. */
  readonly traceRayCount = new Map<ValueId, number>();
  /** Warp-level block executions: block id -> active masks in order. */
  readonly blockMasks = new Map<BlockId, number[]>();

  constructor(readonly m: Module, readonly buffer: Uint32Array) {}

  run(fn: Function, warp: WarpRun): void {
    const cfg = buildCfg(fn);
    const pdt = postDominatorTree(cfg);
    const blocks = new Map(fn.blocks.map((b) => [b.id, b]));
    const consts = new Map<number, Val>();
    for (const c of this.m.constants) {
      if (typeof c.value === 'number') consts.set(c.id, c.value);
      else if (typeof c.value === 'boolean') consts.set(c.id, c.value ? 1 : 0);
    }
    const builtin = new Map<number, string>();
    for (const g of this.m.globals) if (g.builtin) builtin.set(g.id, g.builtin);
    const lanes = warp.launchIds.length;
    const regs: Map<number, Val>[] = Array.from({ length: lanes }, () => new Map());
    const prev = new Int32Array(lanes).fill(-1);
    const get = (lane: number, v: ValueId): Val => {
      const c = consts.get(v);
      if (c !== undefined) return c;
      const r = regs[lane]!.get(v);
      if (r === undefined) throw new Error(`value %${v} undefined in lane ${lane}`);
      return r;
    };
    const num = (lane: number, v: ValueId): number => get(lane, v) as number;
    let live = lanes === 32 ? 0xffffffff : (1 << lanes) - 1;
    const stack: { block: BlockId; mask: number; rpc: BlockId | undefined }[] = [{ block: fn.blocks[0]!.id, mask: live, rpc: undefined }];
    let steps = 0;
    while (stack.length > 0) {
      if (++steps > 100000) throw new Error('interpreter watchdog');
      const top = stack[stack.length - 1]!;
      top.mask &= live;
      if (top.mask === 0 || top.block === top.rpc) {
        stack.pop();
        continue;
      }
      const mask = top.mask >>> 0;
      const block = blocks.get(top.block)!;
      const seen = this.blockMasks.get(block.id) ?? [];
      seen.push(mask);
      this.blockMasks.set(block.id, seen);
      const active: number[] = [];
      for (let l = 0; l < lanes; l++) if ((mask >>> l) & 1) active.push(l);
      let next: BlockId | undefined;
      for (const inst of block.insts) {
        const r = this.exec(inst, active, mask, get, num, regs, prev, block.id, warp);
        if (r === 'return') {
          for (const l of active) live &= ~(1 << l);
          live >>>= 0;
          stack.pop();
          next = undefined;
          break;
        }
        if (inst.op === 'branch') next = inst.target;
        if (inst.op === 'condBranch') {
          let t = 0;
          for (const l of active) if (num(l, inst.cond)) t |= 1 << l;
          t >>>= 0;
          const f = (mask & ~t) >>> 0;
          for (const l of active) prev[l] = block.id;
          if (f === 0) next = inst.ifTrue;
          else if (t === 0) next = inst.ifFalse;
          else {
            const rpc = immediatePostDominator(pdt, block.id);
            if (rpc === undefined) {
              // Reconverge only at the exit: run each side to completion.
              stack.pop();
            } else top.block = rpc;
            stack.push({ block: inst.ifFalse, mask: f, rpc }, { block: inst.ifTrue, mask: t, rpc });
            next = undefined;
            break;
          }
        }
      }
      if (next !== undefined) {
        for (const l of active) prev[l] = block.id;
        top.block = next;
      }
    }
  }

  private exec(
    inst: Inst, active: number[], mask: number,
    get: (l: number, v: ValueId) => Val, num: (l: number, v: ValueId) => number,
    regs: Map<number, Val>[], prev: Int32Array, block: BlockId, warp: WarpRun,
  ): 'return' | undefined {
    const set = (l: number, v: Val) => regs[l]!.set(inst.id, v);
    const lowest = active[0]!;
    switch (inst.op) {
      case 'phi':
        for (const l of active) {
          const inc = inst.incoming.find((i) => i.block === prev[l]);
          if (!inc) throw new Error(`phi %${inst.id} in ^b${block}: no incoming for predecessor ^b${prev[l]}`);
          set(l, get(l, inc.value));
        }
        return;
      case 'load': {
        const g = this.m.globals.find((x) => x.id === inst.ptr);
        if (!g) throw new Error(`load from %${inst.ptr}: only loads of globals are supported`);
        // Non-builtin globals (the acceleration structure handle) read as 0.
        for (const l of active) set(l, g.builtin === 'LaunchId' ? [...warp.launchIds[l]!] : g.builtin === 'LaunchSize' ? [...warp.launchSize] : 0);
        return;
      }
      case 'extract':
        for (const l of active) set(l, (get(l, inst.value) as number[])[inst.indices[0]!]!);
        return;
      case 'binary':
        for (const l of active) {
          const a = num(l, inst.a), b = num(l, inst.b);
          const r = inst.kind === 'add' ? a + b : inst.kind === 'mul' ? Math.imul(a, b) : inst.kind === 'sub' ? a - b : inst.kind === 'rem' ? a % b : NaN;
          set(l, r >>> 0);
        }
        return;
      case 'compare':
        for (const l of active) {
          const a = num(l, inst.a), b = num(l, inst.b);
          const r = { eq: a === b, ne: a !== b, lt: a < b, le: a <= b, gt: a > b, ge: a >= b }[inst.kind];
          set(l, r ? 1 : 0);
        }
        return;
      case 'arrayLength':
        for (const l of active) set(l, this.buffer.length);
        return;
      case 'accessChain':
        for (const l of active) set(l, num(l, inst.indices[1]!));
        return;
      case 'atomic':
        if (inst.kind !== 'add') throw new Error(`atomic ${inst.kind} unsupported`);
        for (const l of active) {
          const at = num(l, inst.ptr);
          if (at >= this.buffer.length) throw new Error(`atomic out of bounds at word ${at}`);
          set(l, this.buffer[at]!);
          this.buffer[at] = (this.buffer[at]! + num(l, inst.value!)) >>> 0;
        }
        return;
      case 'store':
        for (const l of active) {
          const at = num(l, inst.ptr);
          if (at >= this.buffer.length) throw new Error(`store out of bounds at word ${at}`);
          this.buffer[at] = num(l, inst.value);
        }
        return;
      case 'subgroup':
        for (const l of active) {
          if (inst.kind === 'elect') set(l, l === lowest ? 1 : 0);
          else if (inst.kind === 'ballot') set(l, [mask >>> 0, 0, 0, 0]);
          else if (inst.kind === 'broadcastFirst') set(l, get(lowest, inst.args[0]!));
          else throw new Error(`subgroup ${inst.kind} unsupported`);
        }
        return;
      case 'traceRay':
        this.traceRayCount.set(inst.id, (this.traceRayCount.get(inst.id) ?? 0) + active.length);
        return;
      case 'return':
        return 'return';
      case 'branch':
      case 'condBranch':
        return;
      default:
        throw new Error(`op ${inst.op} unsupported by the test interpreter`);
    }
  }
}
