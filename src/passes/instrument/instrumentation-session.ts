/**
 * One instrumentation run over one module: snapshots the original program (metadata, the block
 * of every instruction, each block's entry anchor), then emits primitives at probe points named
 * by ids that survive block splitting, so probes can be added in any order.
 *
 * Invariants kept:
 * - A block's entry probe goes right before the block's first original non-phi (non-variable in
 *   the entry block) instruction, its "anchor"; probes at the same point run in emission order.
 * - The thread-work id is computed once per function at the entry anchor, before any probe of
 *   that function, so it dominates every use.
 * - Every function reachable from an entry point belongs to exactly one shader (the first entry
 *   point that reaches it); functions reachable from none are not instrumented.
 * - Several utilities can share one session (`--mode all`): a probe point gets at most one site
 *   per class (one block ballot per block, one CreateWarpId, one pipeline entry...), so no
 *   execution is counted twice; a block ballot asked for again as `shaderEntry` is relabelled.
 */
import { Builder, findInst, firstNonPhiIndex } from '../../ir/builder.js';
import { buildCfg, type Cfg } from '../../ir/cfg.js';
import type { BlockId, Inst, Loc, ValueId } from '../../ir/inst.js';
import type { Function, Module } from '../../ir/module.js';
import { NAME_PATTERN } from '../../primitives/buffer-layout.js';
import type {
  BlockMetadata,
  InstrumentationMetadata,
  PayloadType,
  PrimitiveKind,
  SourceLocation,
} from '../../primitives/buffer-layout.js';
import { emitCreateWarpId } from '../../primitives/create-warp-id.js';
import { ensureInstrumentationBuffer } from '../../primitives/instrumentation-buffer-global.js';
import { emitThreadUpdate, type PrimitiveTarget } from '../../primitives/thread-update.js';
import { emitThreadWorkId } from '../../primitives/thread-work-id.js';
import { emitWarpBallot } from '../../primitives/warp-update.js';
import { addShaderMetadata, addSite, reachableFunctions } from './metadata.js';
import type {
  InstructionSite, InstrumentedShader, OriginalReturn, Probe, ProbeContext, ProbePoint, ProgramPoint,
} from './probe-context.js';
import { emitValueWords, findVariable } from './value-payload.js';

export type { InstrumentedShader, OriginalReturn, Probe, ProbePoint } from './probe-context.js';

interface OriginalFunction {
  cfg: Cfg;
  returns: OriginalReturn[];
  blocks: Map<BlockId, BlockMetadata>;
  anchors: Map<BlockId, ValueId>;
  blockOfInst: Map<ValueId, BlockId>;
  shader: InstrumentedShader;
}

/** The unified exit's return of each function already rewritten (a second `its` reuses it). */
const unifiedExits = new WeakMap<Function, ValueId>();

export class InstrumentationSession implements ProbeContext {
  readonly shaders: InstrumentedShader[] = [];
  readonly module: Module;
  private bufferId: ValueId | undefined;
  private readonly original = new Map<number, OriginalFunction>();
  private readonly threadWorkIds = new Map<number, ValueId>();
  /** Emitted sites by (function, point, class): see the dedup invariant above. */
  private readonly emitted = new Map<string, number>();

  constructor(readonly m: Module, readonly meta: InstrumentationMetadata) {
    this.module = m;
    const byId = new Map(m.functions.map((f) => [f.id as number, f]));
    for (const entry of m.entryPoints) {
      const root = byId.get(entry.function);
      if (!root) continue;
      const functions = reachableFunctions(m, root).filter((f) => !this.original.has(f.id));
      const shader = addShaderMetadata(meta, m, entry, functions);
      const sh: InstrumentedShader = { shader, entry, root, functions };
      this.shaders.push(sh);
      const cfg = meta.shaders[shader]!.cfg;
      functions.forEach((fn, k) => {
        const blocks = new Map(cfg[k]!.blocks.map((b) => [b.id as BlockId, b]));
        const anchors = new Map<BlockId, ValueId>();
        const blockOfInst = new Map<ValueId, BlockId>();
        const returns: OriginalReturn[] = [];
        fn.blocks.forEach((b, bi) => {
          const anchor = b.insts[firstNonPhiIndex(b, bi === 0)];
          if (anchor) anchors.set(b.id, anchor.id);
          for (const inst of b.insts) {
            blockOfInst.set(inst.id, b.id);
            if (inst.op === 'return') returns.push({ id: inst.id, block: b.id, loc: { ...inst.loc } });
          }
        });
        this.original.set(fn.id, { cfg: buildCfg(fn), returns, blocks, anchors, blockOfInst, shader: sh });
      });
    }
  }

  /** The instrumentation buffer global, added on the first probe (a module without probes stays untouched). */
  get buffer(): ValueId {
    return (this.bufferId ??= ensureInstrumentationBuffer(this.m));
  }

  /** Ids of the original blocks of `fn`, in their original layout order. */
  originalBlocks(fn: Function): BlockId[] {
    return [...this.orig(fn).blocks.keys()];
  }

  /**
   * The returns of `fn` before instrumentation, in layout order. The its utility may turn them into
   * branches to one exit block; their ids stay, so "before return k" still names the same point.
   */
  originalReturns(fn: Function): OriginalReturn[] {
    return this.orig(fn).returns;
  }

  /** The CFG of `fn` before instrumentation (probes split blocks; analyses that place probes use this). */
  originalCfg(fn: Function): Cfg {
    return this.orig(fn).cfg;
  }

  originalBlockOf(fn: Function, inst: ValueId): BlockId {
    const b = this.orig(fn).blockOfInst.get(inst);
    if (b === undefined) throw new Error(`instruction %${inst} is not an original instruction of @${fn.name}`);
    return b;
  }

  private orig(fn: Function): OriginalFunction {
    const o = this.original.get(fn.id);
    if (!o) throw new Error(`function @${fn.name} is not reachable from an entry point of the module`);
    return o;
  }

  private sourceLocation(loc: Loc): SourceLocation {
    return { file: this.m.sources[loc.file]?.path ?? '', line: loc.line, column: loc.column };
  }

  private instLoc(fn: Function, inst: ValueId): Loc {
    for (const b of fn.blocks) for (const i of b.insts) if (i.id === inst) return i.loc;
    throw new Error(`instruction %${inst} not found in @${fn.name}`);
  }

  /** Positions `b` at a probe point and returns the loc the probe should carry. */
  private position(b: Builder, fn: Function, point: ProbePoint): Loc {
    if (point.at === 'blockEntry') {
      const anchor = this.orig(fn).anchors.get(point.block);
      if (anchor === undefined) throw new Error(`block ^b${point.block} of @${fn.name} has no instructions`);
      b.setInsertBefore(anchor);
      return this.instLoc(fn, anchor);
    }
    if (point.at === 'before') b.setInsertBefore(point.inst);
    else b.setInsertAfter(point.inst);
    return this.instLoc(fn, point.inst);
  }

  private threadWorkId(fn: Function): ValueId {
    let id = this.threadWorkIds.get(fn.id);
    if (id !== undefined) return id;
    const o = this.orig(fn);
    const b = new Builder(this.m, fn);
    b.loc = this.position(b, fn, { at: 'blockEntry', block: fn.blocks[0]!.id });
    id = emitThreadWorkId(b, o.shader.entry.stage, o.shader.entry.localSize);
    this.threadWorkIds.set(fn.id, id);
    return id;
  }

  /** Emits one probe and records its site (or reuses the equivalent one); returns the inst id. */
  probe(p: Probe): number {
    // The kind is written to metadata.json and read back by name (metadata-reader.ts).
    if (!NAME_PATTERN.test(p.kind)) throw new Error(`site kind '${p.kind}' must match ${NAME_PATTERN}`);
    const point = p.point.at === 'blockEntry' ? `b${p.point.block}` : `${p.point.at}${p.point.inst}`;
    const rec = typeof p.record === 'string' ? p.record : 'variable' in p.record.value ? `v:${p.record.value.variable}` : `i:${p.record.value.inst}`;
    const cls = p.kind === 'block' || p.kind === 'shaderEntry' ? 'blockBallot' : `${p.kind}${p.traceRay ?? ''}|${rec}`;
    const key = `${p.fn.id}|${point}|${cls}`;
    const existing = this.emitted.get(key);
    if (existing !== undefined) {
      if (p.kind === 'shaderEntry') this.meta.sites[existing]!.kind = 'shaderEntry';
      return existing;
    }
    const id = this.emitNew(p);
    this.emitted.set(key, id);
    return id;
  }

  private emitNew(p: Probe): number {
    const o = this.orig(p.fn);
    const buffer = this.buffer;
    const threadWorkId = this.threadWorkId(p.fn);
    const b = new Builder(this.m, p.fn);
    const loc = this.position(b, p.fn, p.point);
    const blockId = p.block ?? (p.point.at === 'blockEntry' ? p.point.block : this.originalBlockOf(p.fn, p.point.inst));
    const block = o.blocks.get(blockId);
    if (!block) throw new Error(`block ^b${blockId} is not an original block of @${p.fn.name}`);
    b.loc = { ...loc };
    let primitive: PrimitiveKind;
    let payload: string[];
    let payloadTypes: PayloadType[] | undefined;
    let words: ValueId[] = [];
    if (p.record === 'ballot') [primitive, payload] = ['WarpUpdate', ['active_mask']];
    else if (p.record === 'warpId') [primitive, payload] = ['CreateWarpId', ['warp_id']];
    else if (p.record === 'count') [primitive, payload] = ['ThreadUpdate', []];
    else {
      const v = emitValueWords(b, p.fn, p.record.value, (id) => findInst(p.fn, id)?.inst);
      [primitive, payload, payloadTypes, words] = ['ThreadUpdate', v.layout.fields, v.layout.types, v.words];
    }
    const site = addSite(this.meta, {
      kind: p.kind,
      primitive,
      payload,
      shader: o.shader.shader,
      function: p.fn.name,
      block,
      loc: this.sourceLocation(loc),
      ...(p.traceRay !== undefined ? { traceRay: p.traceRay } : {}),
      ...(payloadTypes ? { payloadTypes } : {}),
      ...(p.label !== undefined ? { label: p.label } : {}),
    });
    const target: PrimitiveTarget = { buffer, threadWorkId, loc: { ...loc } };
    if (primitive === 'ThreadUpdate') emitThreadUpdate(b, target, site, words);
    else if (primitive === 'CreateWarpId') emitCreateWarpId(b, target, site);
    else emitWarpBallot(b, target, site);
    return site;
  }

  blockEntries(fn: Function): ProgramPoint[] {
    return this.originalBlocks(fn).map((block) => ({ fn, point: { at: 'blockEntry', block } }));
  }

  instructions(sh: InstrumentedShader, predicate?: (site: InstructionSite) => boolean): InstructionSite[] {
    const out: InstructionSite[] = [];
    for (const fn of sh.functions) {
      const original = this.orig(fn).blockOfInst;
      for (const b of fn.blocks) {
        for (const inst of b.insts) {
          const block = original.get(inst.id);
          if (block === undefined) continue;
          const site: InstructionSite = { fn, inst, block, line: inst.loc.line, file: this.m.sources[inst.loc.file]?.path ?? '' };
          if (!predicate || predicate(site)) out.push(site);
        }
      }
    }
    return out;
  }

  calls(sh: InstrumentedShader): { fn: Function; inst: ValueId; callee: string }[] {
    const names = new Map(this.m.functions.map((f) => [f.id as number, f.name]));
    return this.instructions(sh, (x) => x.inst.op === 'call').map(({ fn, inst }) => ({
      fn, inst: inst.id, callee: names.get((inst as Inst & { op: 'call' }).callee) ?? '?',
    }));
  }

  atLine(sh: InstrumentedShader, line: number, file?: string): InstructionSite | undefined {
    const own = this.m.sources[sh.root.loc.file]?.path ?? '';
    return this.instructions(sh, (x) => {
      if (x.line !== line || x.inst.op === 'variable' || x.inst.op === 'phi') return false;
      return file === undefined ? x.file === own || x.file === '' : x.file === file || x.file.endsWith(`/${file}`) || x.file.endsWith(`\\${file}`);
    })[0];
  }

  hasVariable(fn: Function, name: string): boolean {
    return findVariable(this.m, fn, name) !== undefined;
  }

  unifyReturns(fn: Function, final: OriginalReturn): ValueId {
    const done = unifiedExits.get(fn);
    if (done !== undefined) return done;
    const b = new Builder(this.m, fn);
    b.loc = { ...final.loc };
    const exit = b.createBlock('vv.pipeline.exit');
    b.setInsertPoint(exit);
    const ret = b.emitVoid('return', {});
    for (const r of this.originalReturns(fn)) {
      const found = findInst(fn, r.id)!;
      const old = found.inst;
      // Same id: probes placed "before return k" by other utilities still name this point.
      found.block.insts[found.index] = { op: 'branch', target: exit, id: old.id, type: old.type, loc: old.loc };
    }
    unifiedExits.set(fn, ret);
    return ret;
  }

  /** The traceRay instructions of a shader in layout order (their index is the site's `traceRay`). */
  traceRays(sh: InstrumentedShader): { fn: Function; inst: ValueId }[] {
    return this.instsOf(sh, 'traceRay');
  }

  /** The original instructions with `op` in a shader, in layout order. */
  instsOf(sh: InstrumentedShader, op: Inst['op']): { fn: Function; inst: ValueId }[] {
    const out: { fn: Function; inst: ValueId }[] = [];
    for (const fn of sh.functions) {
      const original = this.orig(fn).blockOfInst;
      for (const b of fn.blocks) for (const i of b.insts) if (i.op === op && original.has(i.id)) out.push({ fn, inst: i.id });
    }
    return out;
  }
}
