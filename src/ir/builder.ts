/**
 * Cursor-based instruction insertion into one function of a module, plus the module-level
 * constructors (constants, globals, functions) that every producer of IR needs.
 *
 * Invariants kept:
 * - Every id comes from `Module.nextId` (one id space for values, blocks, functions).
 * - Scalar constants are interned: the same (type, value, parts) without a spec id returns the
 *   same constant id. The lookup table is a side table keyed by the module's constant array and
 *   is revalidated on every hit, so it never goes stale when others edit `m.constants`.
 * - `splitBlockAt` keeps phis valid: successors of the split block name the new tail block as
 *   their predecessor afterwards; a selection merge moves with the terminator.
 * - The builder holds no Block objects across calls, only ids: passes may replace blocks freely.
 */
import type { Block, Function, Global, Module, Param } from './module.js';
import { freshId } from './module.js';
import type { BlockId, FunctionId, Inst, InstOf, Loc, Op, ValueId } from './inst.js';
import { NO_LOC, isTerminator, successors } from './inst.js';
import { T, intern, type StorageClass, type TypeId, type TypeTable } from './types.js';

export type ConstantValue = number | bigint | boolean | null;

function constantKey(type: TypeId, value: ConstantValue, parts?: readonly ValueId[]): string {
  let v: string;
  if (typeof value === 'number') v = Object.is(value, -0) ? 'n-0' : `n${value}`;
  else if (typeof value === 'bigint') v = `b${value}`;
  else v = String(value);
  return `${type}|${v}|${parts ? parts.join(',') : ''}`;
}

/**
 * Interning side table per constants array: structural key -> position. `lastId` is the id of the
 * last constant indexed, so an array edited in place (spliced, then pushed back to the same
 * length) is noticed and re-indexed; a hit is re-checked against the array before it is used.
 */
const constantIndexes = new WeakMap<Module['constants'], { indexed: number; lastId: number | undefined; byKey: Map<string, number> }>();

/**
 * Returns the id of the (non-specialization) constant of `type` with `value` (and `parts` for
 * composites), adding it to the module if it does not exist yet.
 */
export function constant(m: Module, type: TypeId, value: ConstantValue, parts?: ValueId[]): ValueId {
  const key = constantKey(type, value, parts);
  let pos = lookupConstant(m, key);
  if (pos !== undefined) {
    const c = m.constants[pos];
    if (c && c.specId === undefined && constantKey(c.type, c.value, c.parts) === key) return c.id;
    // The constant at that position was edited in place: re-index everything once.
    constantIndexes.delete(m.constants);
    pos = lookupConstant(m, key);
    if (pos !== undefined) return m.constants[pos]!.id;
  }
  const id = freshId<ValueId>(m);
  const c: Module['constants'][number] = { id, type, value };
  if (parts) c.parts = [...parts];
  m.constants.push(c);
  return id;
}

/** Position in `m.constants` of the first plain constant with `key`, indexing new entries first. */
function lookupConstant(m: Module, key: string): number | undefined {
  let index = constantIndexes.get(m.constants);
  if (!index || index.indexed > m.constants.length || (index.indexed > 0 && m.constants[index.indexed - 1]!.id !== index.lastId)) {
    index = { indexed: 0, lastId: undefined, byKey: new Map() };
    constantIndexes.set(m.constants, index);
  }
  for (; index.indexed < m.constants.length; index.indexed++) {
    const c = m.constants[index.indexed]!;
    index.lastId = c.id;
    if (c.specId !== undefined) continue;
    const k = constantKey(c.type, c.value, c.parts);
    if (!index.byKey.has(k)) index.byKey.set(k, index.indexed);
  }
  return index.byKey.get(key);
}

/** Adds a module-scope variable and returns its id. */
export function addGlobal(m: Module, g: Omit<Global, 'id'>): ValueId {
  const id = freshId<ValueId>(m);
  m.globals.push({ id, ...g });
  return id;
}

export interface NewFunction {
  name: string;
  returnType: TypeId;
  params?: { type: TypeId; name?: string }[];
  loc?: Loc;
}

/** Adds a function with fresh ids for itself and its parameters; it has no blocks yet. */
export function addFunction(m: Module, f: NewFunction): Function {
  const id = freshId<FunctionId>(m);
  const params: Param[] = (f.params ?? []).map((p) => {
    const param: Param = { id: freshId<ValueId>(m), type: p.type };
    if (p.name !== undefined) param.name = p.name;
    return param;
  });
  const fn: Function = { id, name: f.name, returnType: f.returnType, params, blocks: [], loc: f.loc ?? { ...NO_LOC } };
  m.functions.push(fn);
  return fn;
}

export function findBlock(fn: Function, id: BlockId): Block {
  const b = fn.blocks.find((x) => x.id === id);
  if (!b) throw new Error(`block ^b${id} not found in function @${fn.name}`);
  return b;
}

export function functionById(m: Module, id: FunctionId): Function {
  const f = m.functions.find((x) => x.id === id);
  if (!f) throw new Error(`function %${id} not found in module`);
  return f;
}

/** Index of the first instruction that is not a phi (and, when `skipVariables`, not a variable). */
export function firstNonPhiIndex(block: Block, skipVariables = false): number {
  let i = 0;
  while (i < block.insts.length) {
    const op = block.insts[i]!.op;
    if (op === 'phi' || (skipVariables && op === 'variable')) i++;
    else break;
  }
  return i;
}

/** Locates an instruction by id: its block and index. */
export function findInst(fn: Function, id: ValueId): { block: Block; index: number; inst: Inst } | undefined {
  for (const block of fn.blocks) {
    const index = block.insts.findIndex((i) => i.id === id);
    if (index >= 0) return { block, index, inst: block.insts[index]! };
  }
  return undefined;
}

/** Shorthand type ids of the module's table (interned on first use). */
export class TypeShorthands {
  constructor(private readonly table: TypeTable) {}
  get void(): TypeId { return T.void(this.table); }
  get bool(): TypeId { return T.bool(this.table); }
  get i32(): TypeId { return T.i32(this.table); }
  get u32(): TypeId { return T.u32(this.table); }
  get i64(): TypeId { return T.i64(this.table); }
  get u64(): TypeId { return T.u64(this.table); }
  get f32(): TypeId { return T.f32(this.table); }
  vec(elem: TypeId, count: 2 | 3 | 4): TypeId { return T.vec(this.table, elem, count); }
  ptr(storage: StorageClass, pointee: TypeId): TypeId { return T.ptr(this.table, storage, pointee); }
  array(elem: TypeId, length: number, stride?: number): TypeId {
    return intern(this.table, stride === undefined ? { kind: 'array', elem, length } : { kind: 'array', elem, length, stride });
  }
}

export class Builder {
  readonly module: Module;
  readonly fn: Function;
  /** Location given to emitted instructions when `emit` gets none. */
  loc: Loc = { ...NO_LOC };
  readonly t: TypeShorthands;
  private cursorBlock: BlockId | undefined;
  /** undefined = end of block. */
  private cursorIndex: number | undefined;

  constructor(m: Module, fn: Function) {
    this.module = m;
    this.fn = fn;
    this.t = new TypeShorthands(m.types);
    if (fn.blocks.length > 0) this.cursorBlock = fn.blocks[0]!.id;
  }

  /** The block the cursor is in. */
  get block(): BlockId {
    if (this.cursorBlock === undefined) throw new Error(`builder for @${this.fn.name} has no insertion point`);
    return this.cursorBlock;
  }

  /** Current insertion index inside the cursor block. */
  get index(): number {
    const b = findBlock(this.fn, this.block);
    return this.cursorIndex === undefined ? b.insts.length : this.cursorIndex;
  }

  setInsertPoint(block: BlockId, index?: number): void {
    const b = findBlock(this.fn, block);
    if (index !== undefined && (index < 0 || index > b.insts.length)) {
      throw new Error(`insert index ${index} out of range for ^b${block} (${b.insts.length} insts)`);
    }
    this.cursorBlock = block;
    this.cursorIndex = index;
  }

  setInsertBeforeTerminator(block: BlockId): void {
    const b = findBlock(this.fn, block);
    const last = b.insts[b.insts.length - 1];
    this.setInsertPoint(block, last && isTerminator(last) ? b.insts.length - 1 : b.insts.length);
  }

  /** Before the instruction `inst` (which must be in this function). */
  setInsertBefore(inst: ValueId): void {
    const found = findInst(this.fn, inst);
    if (!found) throw new Error(`instruction %${inst} not found in @${this.fn.name}`);
    this.setInsertPoint(found.block.id, found.index);
  }

  /** After the instruction `inst` (which must not be a terminator). */
  setInsertAfter(inst: ValueId): void {
    const found = findInst(this.fn, inst);
    if (!found) throw new Error(`instruction %${inst} not found in @${this.fn.name}`);
    this.setInsertPoint(found.block.id, found.index + 1);
  }

  insertAfterPhisAndVariables(block: BlockId): void {
    const b = findBlock(this.fn, block);
    const isEntry = this.fn.blocks[0]?.id === block;
    this.setInsertPoint(block, firstNonPhiIndex(b, isEntry));
  }

  /** A new empty block, appended to `fn.blocks`, or placed right after `after` in layout order. */
  createBlock(name?: string, after?: BlockId): BlockId {
    const id = freshId<BlockId>(this.module);
    const b: Block = { id, insts: [] };
    if (name !== undefined) b.name = name;
    if (after === undefined) this.fn.blocks.push(b);
    else this.fn.blocks.splice(this.fn.blocks.indexOf(findBlock(this.fn, after)) + 1, 0, b);
    return id;
  }

  /**
   * Moves `insts[index..]` of `block` into a new block placed right after it in layout order; the
   * old block ends with a branch to the new one. Successors' phis now name the new block. A
   * selection merge annotation moves with the terminator (it must precede a condBranch/switch);
   * a loop merge stays, because back edges still target the old block. Returns the new block.
   */
  splitBlockAt(block: BlockId, index: number, name?: string): BlockId {
    const oldBlock = findBlock(this.fn, block);
    if (index < firstNonPhiIndex(oldBlock) || index > oldBlock.insts.length) {
      throw new Error(`cannot split ^b${block} at ${index}: must be after its phis and within the block`);
    }
    const id = freshId<BlockId>(this.module);
    const tail: Block = { id, insts: oldBlock.insts.splice(index) };
    if (name !== undefined) tail.name = name;
    else if (oldBlock.name !== undefined) tail.name = `${oldBlock.name}.split`;
    if (oldBlock.merge?.kind === 'selection') {
      tail.merge = oldBlock.merge;
      delete oldBlock.merge;
    }
    const loc = tail.insts[0]?.loc ?? this.loc;
    const br: Inst = { op: 'branch', target: id, id: freshId<ValueId>(this.module), type: T.void(this.module.types), loc: { ...loc } };
    oldBlock.insts.push(br);
    this.fn.blocks.splice(this.fn.blocks.indexOf(oldBlock) + 1, 0, tail);

    const last = tail.insts[tail.insts.length - 1];
    const succs = last && isTerminator(last) ? successors(last) : [];
    for (const s of new Set(succs)) {
      const sb = this.fn.blocks.find((x) => x.id === s);
      if (!sb) continue;
      for (const inst of sb.insts) {
        if (inst.op !== 'phi') break;
        for (const inc of inst.incoming) if (inc.block === block) inc.block = id;
      }
    }
    if (this.cursorBlock === block && this.cursorIndex !== undefined && this.cursorIndex >= index) {
      this.cursorBlock = id;
      this.cursorIndex -= index;
    } else if (this.cursorBlock === block && this.cursorIndex === undefined) {
      this.cursorBlock = id;
    }
    return id;
  }

  /** Inserts an instruction at the cursor and advances the cursor past it; returns its id. */
  emit<O extends Op>(op: O, fields: Omit<InstOf<O>, 'id' | 'loc' | 'op' | 'type'>, type: TypeId, loc?: Loc): ValueId {
    const b = findBlock(this.fn, this.block);
    const id = freshId<ValueId>(this.module);
    const inst = { ...fields, op, id, type, loc: { ...(loc ?? this.loc) } } as unknown as Inst;
    if (this.cursorIndex === undefined) b.insts.push(inst);
    else b.insts.splice(this.cursorIndex++, 0, inst);
    return id;
  }

  /** Emits a void-typed instruction (store, branch, ...). */
  emitVoid<O extends Op>(op: O, fields: Omit<InstOf<O>, 'id' | 'loc' | 'op' | 'type'>, loc?: Loc): ValueId {
    return this.emit(op, fields, T.void(this.module.types), loc);
  }

  constant(type: TypeId, value: ConstantValue, parts?: ValueId[]): ValueId {
    return constant(this.module, type, value, parts);
  }
  constU32(n: number): ValueId { return constant(this.module, this.t.u32, n >>> 0); }
  constI32(n: number): ValueId { return constant(this.module, this.t.i32, n | 0); }
  constF32(x: number): ValueId { return constant(this.module, this.t.f32, Math.fround(x)); }
  constBool(b: boolean): ValueId { return constant(this.module, this.t.bool, b); }
}

