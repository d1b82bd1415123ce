/**
 * The IR verifier: structure (terminators, phis, variables, ids, block targets, merge info,
 * entry points, locs), SSA dominance and per-op operand/result types.
 *
 * Every message names the function, block, instruction id and op, and the source location, so a
 * pass author can find the instruction in the printed IR and the shader line it came from:
 *   `@main ^b3 %17 (load) [shader.rchit:12:5]: ...`
 * The verifier never throws on malformed input (unknown ids, missing blocks); it reports them.
 */
import { buildCfg, type Cfg } from './cfg.js';
import { dominatorTree, type DomTree } from './dominators.js';
import type { BlockId, Inst, Loc, ValueId } from './inst.js';
import { isTerminator, operands, successors } from './inst.js';
import type { Block, Function, Module } from './module.js';
import { typeName, type TypeId } from './types.js';
import { checkInstTypes, type TypeEnv } from './verify-types.js';

export class IrVerifyError extends Error {
  constructor(readonly messages: string[]) {
    super(`IR verification failed (${messages.length} problem${messages.length === 1 ? '' : 's'}):\n  ${messages.join('\n  ')}`);
    this.name = 'IrVerifyError';
  }
}

export function assertValid(m: Module): void {
  const msgs = verifyModule(m);
  if (msgs.length > 0) throw new IrVerifyError(msgs);
}

function locText(m: Module, loc: Loc | undefined): string {
  if (!loc) return 'no loc';
  const file = m.sources[loc.file]?.path ?? `file${loc.file}`;
  return `${file}:${loc.line}:${loc.column}`;
}

/** Where a value is defined inside a function. */
interface Def {
  block: BlockId;
  index: number;
}

export function verifyModule(m: Module): string[] {
  const out: string[] = [];
  const types = m.types.types;
  const validType = (t: TypeId | undefined): boolean => t !== undefined && Number.isInteger(t) && t >= 0 && t < types.length;

  // ----- module-wide ids -----
  const seen = new Map<number, string>();
  const claim = (id: number, what: string): void => {
    const prev = seen.get(id);
    if (prev !== undefined) out.push(`duplicate id %${id}: ${what} reuses the id of ${prev}`);
    else seen.set(id, what);
    if (!(id < m.nextId)) out.push(`id %${id} of ${what} is not below module.nextId ${m.nextId}`);
  };
  for (const c of m.constants) claim(c.id, `constant %${c.id}`);
  for (const g of m.globals) claim(g.id, `global %${g.id} "${g.name}"`);
  for (const f of m.functions) {
    claim(f.id, `function @${f.name}`);
    for (const p of f.params) claim(p.id, `parameter %${p.id} of @${f.name}`);
    for (const b of f.blocks) {
      claim(b.id, `block ^b${b.id} of @${f.name}`);
      for (const i of b.insts) claim(i.id, `instruction %${i.id} (${i.op}) in @${f.name} ^b${b.id}`);
    }
  }

  // ----- module-scope value types -----
  const globalTypes = new Map<ValueId, TypeId>();
  const constIds = new Map<ValueId, Module['constants'][number]>();
  for (const c of m.constants) {
    if (!validType(c.type)) out.push(`constant %${c.id}: unknown type id ${c.type}`);
    globalTypes.set(c.id, c.type);
    constIds.set(c.id, c);
  }
  for (const c of m.constants) {
    for (const p of c.parts ?? []) {
      if (!constIds.has(p)) out.push(`constant %${c.id}: part %${p} is not a constant`);
    }
  }
  for (const g of m.globals) {
    const where = `global %${g.id} "${g.name}" [${locText(m, g.loc)}]`;
    if (!validType(g.type)) {
      out.push(`${where}: unknown type id ${g.type}`);
    } else {
      const t = types[g.type]!;
      if (t.kind !== 'pointer') out.push(`${where}: type ${typeName(m.types, g.type)} is not a pointer`);
      else if (t.storage !== g.storage) out.push(`${where}: storage ${g.storage} differs from its pointer type's ${t.storage}`);
    }
    if (g.storage === 'function') out.push(`${where}: module-scope variable with function storage`);
    if (g.init !== undefined && !constIds.has(g.init)) out.push(`${where}: initializer %${g.init} is not a constant`);
    if (!g.loc) out.push(`${where}: missing loc`);
    globalTypes.set(g.id, g.type);
  }
  const fnById = new Map(m.functions.map((f) => [f.id as number, f]));

  // ----- entry points -----
  for (const e of m.entryPoints) {
    const f = fnById.get(e.function);
    const where = `entry point ${e.stage} "${e.name}"`;
    if (!f) {
      out.push(`${where}: function %${e.function} does not exist`);
      continue;
    }
    if (types[f.returnType]?.kind !== 'void') out.push(`${where}: function @${f.name} must return void`);
    if (f.params.length > 0) out.push(`${where}: function @${f.name} must take no parameters`);
  }
  for (const s of m.sources) if (typeof s.path !== 'string') out.push(`source with non-string path`);

  for (const f of m.functions) {
    try {
      verifyFunction(m, f, globalTypes, fnById, constIds, validType, out);
    } catch (e) {
      // Only structurally malformed objects (a missing operand array, a non-object inst) get here.
      out.push(`@${f.name}: malformed function, verification stopped: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}

function verifyFunction(
  m: Module,
  f: Function,
  globalTypes: Map<ValueId, TypeId>,
  fnById: Map<number, Function>,
  constants: ReadonlyMap<number, Module['constants'][number]>,
  validType: (t: TypeId | undefined) => boolean,
  out: string[],
): void {
  const fnWhere = `@${f.name}`;
  if (!validType(f.returnType)) out.push(`${fnWhere}: unknown return type id ${f.returnType}`);
  if (!f.loc) out.push(`${fnWhere}: missing loc`);
  if (f.blocks.length === 0) {
    out.push(`${fnWhere}: function has no blocks`);
    return;
  }
  const where = (b: Block, i: Inst): string => `${fnWhere} ^b${b.id} %${i.id} (${i.op}) [${locText(m, i.loc)}]`;
  const blockIds = new Set<BlockId>();
  for (const b of f.blocks) {
    if (blockIds.has(b.id)) out.push(`${fnWhere} ^b${b.id}: block id appears twice in the function`);
    blockIds.add(b.id);
  }

  // ----- local value types and definition sites -----
  const localTypes = new Map<ValueId, TypeId>();
  const defs = new Map<ValueId, Def>();
  for (const p of f.params) {
    if (!validType(p.type)) out.push(`${fnWhere}: parameter %${p.id} has unknown type id ${p.type}`);
    localTypes.set(p.id, p.type);
  }
  for (const b of f.blocks) {
    b.insts.forEach((inst, index) => {
      if (!validType(inst.type)) out.push(`${where(b, inst)}: unknown result type id ${inst.type}`);
      localTypes.set(inst.id, inst.type);
      defs.set(inst.id, { block: b.id, index });
    });
  }
  const paramIds = new Set(f.params.map((p) => p.id));
  // Values of unknown type were reported where they are defined; type rules skip them.
  const typeOfValue = (v: ValueId): TypeId | undefined => {
    const t = localTypes.get(v) ?? globalTypes.get(v);
    return validType(t) ? t : undefined;
  };

  // ----- structure -----
  let structureOk = true;
  const entry = f.blocks[0]!;
  f.blocks.forEach((b) => {
    if (b.insts.length === 0) {
      out.push(`${fnWhere} ^b${b.id}: empty block (needs a terminator)`);
      structureOk = false;
      return;
    }
    const last = b.insts[b.insts.length - 1]!;
    if (!isTerminator(last)) {
      out.push(`${where(b, last)}: block ^b${b.id} does not end with a terminator`);
      structureOk = false;
    }
    let phisDone = false;
    let variablesDone = false;
    b.insts.forEach((inst, i) => {
      if (!inst.loc || typeof inst.loc.line !== 'number' || typeof inst.loc.column !== 'number' || typeof inst.loc.file !== 'number') {
        out.push(`${where(b, inst)}: missing loc`);
      } else if (m.sources.length > 0 && (inst.loc.file < 0 || inst.loc.file >= m.sources.length)) {
        out.push(`${where(b, inst)}: loc names source file ${inst.loc.file}, but the module has ${m.sources.length}`);
      }
      if (isTerminator(inst) && i !== b.insts.length - 1) {
        out.push(`${where(b, inst)}: terminator in the middle of block ^b${b.id}`);
        structureOk = false;
      }
      if (inst.op === 'phi') {
        if (phisDone) out.push(`${where(b, inst)}: phi after a non-phi instruction`);
      } else phisDone = true;
      if (inst.op === 'variable') {
        if (b !== entry) out.push(`${where(b, inst)}: variable outside the entry block`);
        else if (variablesDone) out.push(`${where(b, inst)}: variable after a non-variable instruction`);
      } else variablesDone = true;
      for (const s of successors(inst)) {
        if (!blockIds.has(s)) {
          out.push(`${where(b, inst)}: branch target ^b${s} does not exist in ${fnWhere}`);
          structureOk = false;
        }
      }
    });
    if (b.merge) {
      const mw = `${fnWhere} ^b${b.id}: ${b.merge.kind} merge`;
      if (!blockIds.has(b.merge.merge)) out.push(`${mw} block ^b${b.merge.merge} does not exist`);
      if (b.merge.kind === 'loop' && !blockIds.has(b.merge.continue)) out.push(`${mw} continue block ^b${b.merge.continue} does not exist`);
      if (b.merge.kind === 'selection' && last.op !== 'condBranch' && last.op !== 'switch') {
        out.push(`${where(b, last)}: selection merge on a block that ends in ${last.op} (needs condBranch or switch)`);
      }
    }
  });

  const cfg = buildCfg(f);
  const entryPreds = cfg.preds.get(entry.id) ?? [];
  if (entryPreds.length > 0) {
    out.push(`${fnWhere} ^b${entry.id}: the entry block is a branch target (from ${entryPreds.map((p) => `^b${p}`).join(', ')})`);
  }
  // Phi incoming sets are checked against the CFG even when some other structure rule failed.
  for (const b of f.blocks) {
    const preds = cfg.preds.get(b.id) ?? [];
    for (const inst of b.insts) {
      if (inst.op !== 'phi') continue;
      const seenPreds = new Set<BlockId>();
      for (const inc of inst.incoming) {
        if (!preds.includes(inc.block)) out.push(`${where(b, inst)}: incoming block ^b${inc.block} is not a predecessor of ^b${b.id}`);
        else if (seenPreds.has(inc.block)) out.push(`${where(b, inst)}: two incoming entries for predecessor ^b${inc.block}`);
        seenPreds.add(inc.block);
      }
      for (const p of preds) if (!seenPreds.has(p)) out.push(`${where(b, inst)}: no incoming entry for predecessor ^b${p}`);
    }
  }

  // ----- SSA: defined, and dominance -----
  const dom = structureOk ? dominatorTree(cfg) : undefined;
  const reachable = new Set(cfg.rpo);
  for (const b of f.blocks) {
    b.insts.forEach((inst, index) => {
      if (inst.op === 'phi') {
        for (const inc of inst.incoming) checkUse(inst, b, index, inc.value, inc.block);
      } else {
        for (const v of operands(inst)) checkUse(inst, b, index, v, undefined);
      }
    });
  }
  function checkUse(inst: Inst, b: Block, index: number, v: ValueId, phiPred: BlockId | undefined): void {
    if (globalTypes.has(v)) return;
    if (paramIds.has(v)) return;
    const d = defs.get(v);
    if (!d) {
      const elsewhere = [...fnById.values()].some((g) => g !== f && g.blocks.some((x) => x.insts.some((i) => i.id === v)));
      out.push(`${where(b, inst)}: operand %${v} is ${elsewhere ? 'defined in another function' : 'not defined'}`);
      return;
    }
    if (!dom || !reachable.has(b.id)) return;
    if (phiPred !== undefined) {
      if (!reachable.has(phiPred)) return;
      if (d.block !== phiPred && !dominatesDef(dom, d, phiPred, reachable)) {
        out.push(`${where(b, inst)}: %${v} does not dominate the end of incoming block ^b${phiPred}`);
      }
      return;
    }
    if (d.block === b.id) {
      if (d.index >= index) out.push(`${where(b, inst)}: %${v} is used before its definition in ^b${b.id}`);
    } else if (!dominatesDef(dom, d, b.id, reachable)) {
      out.push(`${where(b, inst)}: %${v} (defined in ^b${d.block}) does not dominate this use`);
    }
  }

  // ----- types -----
  const env: TypeEnv = { m, fn: f, typeOf: typeOfValue, fnById, constants };
  for (const b of f.blocks) {
    for (const inst of b.insts) {
      if (!validType(inst.type)) continue;
      for (const msg of checkInstTypes(env, inst)) out.push(`${where(b, inst)}: ${msg}`);
    }
  }
}

function dominatesDef(dom: DomTree, d: Def, use: BlockId, reachable: Set<BlockId>): boolean {
  if (!reachable.has(d.block)) return false;
  return dom.dominates(d.block, use);
}
