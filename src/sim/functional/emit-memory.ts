/**
 * Emitters for memory instructions: access chains (byte-offset arithmetic from the explicit
 * layouts), loads, stores, arrayLength, buffer_reference conversions and atomics.
 *
 * Invariants of the generated code:
 * - Every shared-memory access is bounds-checked against its region before touching it
 *   (`W.oob` / `W.findRegion` raise a located SimError); fixed-size array and vector indices are
 *   checked against their length (`W.indexOob`), runtime arrays against the buffer's end.
 * - Memory is read through the 32-bit views chosen by the leaf kind; 64-bit leaves are two words.
 * - Function-storage accesses are register traffic (OpClass.Register, no MemAccess); other
 *   accesses register a memory site whose per-lane address is recorded when `REC` is on.
 */
import type { Inst, InstOf, ValueId } from '../../ir/inst.js';
import { typeOf, type TypeId } from '../../ir/types.js';
import { OpClass } from '../warp-step.js';
import type { EmitContext, MemSite, PtrInfo } from './emit-context.js';
import { LayoutTable, PRIVATE_BASE, type LeafKind, type MatrixDecoration } from './layout.js';
import { SimError } from './errors.js';

const TWO32 = '4294967296';

interface Access {
  U: string;
  I: string;
  F: string;
  /** Word index of the access start. */
  w: string;
}

export function spaceOfPtr(p: PtrInfo): MemSite['space'] {
  const b = p.base;
  if (b.kind === 'shared' || b.kind === 'bufferArray') return b.space;
  return b.kind === 'private' && b.rtState ? 'rtState' : 'local';
}

function pointeeOfPtrType(ctx: EmitContext, ty: TypeId): TypeId {
  const t = typeOf(ctx.module.types, ty);
  if (t.kind !== 'pointer') throw new SimError('internal', 'expected a pointer type');
  return t.pointee;
}

/**
 * Emits the address computation and bounds check of an access of `size` bytes through `ptr`;
 * returns the views and word index to use, or undefined for function-storage (no memory site).
 */
function beginAccess(ctx: EmitContext, inst: Inst, ptr: ValueId, size: number, kind: MemSite['kind'], wordMask = -1): Access {
  const info = ctx.ptrInfo(ptr);
  const a = ctx.tmp('a');
  const w = ctx.tmp('w');
  ctx.line(`const ${a} = ${ctx.read(ptr, 0)};`);
  const site = ctx.site(inst);
  const b = info.base;
  const recordAddress = (): void => {
    const k = ctx.memSite(inst, kind, size, spaceOfPtr(info), wordMask);
    ctx.line(`if (REC) AD[${k * 32} + l] = ${a};`);
  };
  ctx.need('P', 'W.priv');
  ctx.need('PU', 'P.u32');
  ctx.need('PI', 'P.i32');
  ctx.need('PF', 'P.f32');
  ctx.need('PW', 'P.laneWords');
  if (b.kind === 'private') {
    ctx.line(`const ${w} = l * PW + ((${a} - ${PRIVATE_BASE}) >> 2);`);
    if (b.fnStorage || ((inst.op === 'load' || inst.op === 'store') && inst.payloadCopy) || wordMask === 0) ctx.setClass(OpClass.Register);
    else {
      ctx.setClass(OpClass.Memory);
      recordAddress();
    }
    return { U: 'PU', I: 'PI', F: 'PF', w };
  }
  // An access NIR deletes or drops whole (wordMask 0: dead-results.ts, redundant-stores.ts) still
  // runs functionally (nothing live reads it, or it stores the value already there) but sends nothing.
  if (wordMask === 0) ctx.setClass(OpClass.Register);
  else {
    ctx.setClass(OpClass.Memory);
    recordAddress();
  }
  if (b.kind === 'shared' && (b.region !== undefined || b.workgroup)) {
    const rg = b.workgroup ? 'WGR' : `RG${b.region}`;
    ctx.need(rg, b.workgroup ? 'W.wgRegion' : `W.env.globalRegion[${b.region}]`);
    const o = ctx.tmp('o');
    ctx.line(`const ${o} = ${a} - ${rg}.base;`);
    ctx.line(`if (${o} < 0 || ${o} + ${size} > ${rg}.size || (${o} & 3) !== 0) W.oob(${site}, l, ${a}, ${size}, ${rg});`);
    ctx.line(`const ${w} = ${o} >> 2;`);
    return { U: `${rg}.u32`, I: `${rg}.i32`, F: `${rg}.f32`, w };
  }
  if (b.kind === 'shared' || b.kind === 'bufferArray') {
    const rg = ctx.tmp('rg');
    ctx.line(`const ${rg} = W.findRegion(${a}, ${size}, ${site}, l);`);
    ctx.line(`const ${w} = (${a} - ${rg}.base) >> 2;`);
    return { U: `${rg}.u32`, I: `${rg}.i32`, F: `${rg}.f32`, w };
  }
  if (b.kind === 'generic') {
    const U = ctx.tmp('U');
    const I = ctx.tmp('I');
    const F = ctx.tmp('F');
    ctx.line(`let ${U}, ${I}, ${F}, ${w};`);
    ctx.line(`if (${a} < 0) { ${U} = PU; ${I} = PI; ${F} = PF; ${w} = l * PW + ((${a} - ${PRIVATE_BASE}) >> 2); }`);
    ctx.line(
      `else { const rg = W.findRegion(${a}, ${size}, ${site}, l); ${U} = rg.u32; ${I} = rg.i32; ${F} = rg.f32; ${w} = (${a} - rg.base) >> 2; }`,
    );
    return { U, I, F, w };
  }
  throw new SimError('internal', `memory access through a ${b.kind} pointer`);
}

function readLeaf(acc: Access, k: LeafKind, byteOff: number): string {
  const i = `${acc.w} + ${byteOff >> 2}`;
  switch (k) {
    case 'f32':
      return `${acc.F}[${i}]`;
    case 'i32':
      return `${acc.I}[${i}]`;
    case 'u32':
      return `${acc.U}[${i}]`;
    case 'bool':
      return `(${acc.U}[${i}] !== 0)`;
    case 'u64':
    case 'ptr':
      return `(${acc.U}[${i}] + ${acc.U}[${i} + 1] * ${TWO32})`;
    case 'i64':
      return `(${acc.U}[${i}] + ${acc.I}[${i} + 1] * ${TWO32})`;
    case 'f64':
      return `X.bitsf64(${acc.U}[${i}], ${acc.U}[${i} + 1])`;
    case 'handle':
      throw new SimError('unsupported', 'opaque handles cannot be stored in memory');
  }
}

function writeLeaf(acc: Access, k: LeafKind, byteOff: number, v: string): string {
  const i = `${acc.w} + ${byteOff >> 2}`;
  switch (k) {
    case 'f32':
      return `${acc.F}[${i}] = ${v};`;
    case 'i32':
      return `${acc.I}[${i}] = ${v};`;
    case 'u32':
      return `${acc.U}[${i}] = ${v};`;
    case 'bool':
      return `${acc.U}[${i}] = ${v} ? 1 : 0;`;
    case 'u64':
    case 'i64':
    case 'ptr':
      return `{ const t = ${v}; ${acc.U}[${i}] = X.lo32u(t); ${acc.U}[${i} + 1] = X.hi32u(t); }`;
    case 'f64':
      return `{ const t = X.f64bits(${v}); ${acc.U}[${i}] = t[0]; ${acc.U}[${i} + 1] = t[1]; }`;
    case 'handle':
      throw new SimError('unsupported', 'opaque handles cannot be stored in memory');
  }
}

function layoutFor(ctx: EmitContext, info: PtrInfo, pointee: TypeId): { offsets: number[]; kinds: LeafKind[]; size: number } {
  if (info.vecStride !== undefined) {
    const kinds = ctx.layout.leavesOf(pointee);
    const offsets = kinds.map((_, k) => k * info.vecStride!);
    return { offsets, kinds, size: offsets[offsets.length - 1]! + 4 };
  }
  const lay = ctx.layout.layoutOf(pointee, info.mat);
  for (const o of lay.offsets) {
    if (o % 4 !== 0) throw new SimError('unsupported', `member at byte offset ${o} is not 4-byte aligned (8/16-bit storage is not supported)`);
  }
  return { offsets: lay.offsets, kinds: lay.kinds, size: Math.max(lay.size, 4) };
}

/** Leaf expressions of the value `ptr` points to (loads; also used by other emitters). */
export function loadThrough(ctx: EmitContext, inst: Inst, ptr: ValueId, pointee: TypeId): string[] {
  const info = ctx.ptrInfo(ptr);
  const b = info.base;
  if (b.kind === 'builtin') {
    ctx.setClass(OpClass.Alu);
    const n = ctx.layout.leavesOf(pointee).length;
    if ((b.builtin === 'WorldRayDirection' || b.builtin === 'WorldRayOrigin') && !ctx.removedByNir(inst)) {
      // Vulkan-Sim loads these from the ray's Traversal_data in global memory: a memory access
      // for the timing model (the value itself comes from the runtime).
      ctx.setClass(OpClass.Memory);
      const k = ctx.memSite(inst, 'load', 4 * n, 'traversal');
      ctx.line(`if (REC) AD[${k * 32} + l] = W.traversalData(${JSON.stringify(b.builtin)}, l) + ${4 * b.leaf};`);
    }
    return builtinLeaves(ctx, b.builtin, b.leaf, n);
  }
  if (b.kind === 'handle') {
    ctx.setClass(OpClass.Alu);
    const p = ctx.read(ptr, 0);
    if (b.table === 'accels') {
      ctx.need('ACC', 'W.env.accels');
      return [`ACC[${p}]`];
    }
    return [p];
  }
  const lay = layoutFor(ctx, info, pointee);
  const acc = beginAccess(ctx, inst, ptr, lay.size, 'load', ctx.removedByNir(inst) ? 0 : keptWords(ctx.keptLeaves(inst), lay.kinds, lay.offsets, lay.size));
  return lay.kinds.map((k, i) => readLeaf(acc, k, lay.offsets[i]!));
}

export function storeThrough(ctx: EmitContext, inst: Inst, ptr: ValueId, exprs: string[]): void {
  const info = ctx.ptrInfo(ptr);
  if (info.base.kind === 'builtin' || info.base.kind === 'handle') throw new SimError('unsupported', `store to a ${info.base.kind} variable`);
  const lay = layoutFor(ctx, info, info.pointee);
  const vals = exprs.map((e) => {
    const t = ctx.tmp('s');
    ctx.line(`const ${t} = ${e};`);
    return t;
  });
  const acc = beginAccess(ctx, inst, ptr, lay.size, 'store', ctx.removedByNir(inst) ? 0 : keptWords(ctx.keptLeaves(inst), lay.kinds, lay.offsets, lay.size));
  lay.kinds.forEach((k, i) => ctx.line(writeLeaf(acc, k, lay.offsets[i]!, vals[i]!)));
}

/**
 * The word mask (MemSite.wordMask) of a load or store that accesses only the leaves `kept` flags: bit k for
 * word k of its `size` bytes; -1 (all) where every leaf is kept or the value is wider than 32 words.
 */
function keptWords(kept: readonly boolean[] | undefined, kinds: LeafKind[], offsets: number[], size: number): number {
  if (kept === undefined || kept.length !== kinds.length || kept.every((x) => x) || size > 128) return -1;
  let mask = 0;
  kinds.forEach((k, i) => {
    if (!kept[i]) return;
    const first = offsets[i]! >> 2;
    for (let j = first; j < first + (LayoutTable.leafBytes(k) >> 2); j++) mask |= 1 << j;
  });
  return mask;
}

/** Leaf expressions of built-in input variables the core provides itself; RT ones go to the runtime. */
function builtinLeaves(ctx: EmitContext, name: string, first: number, n: number): string[] {
  const out: string[] = [];
  const vec3 = (arr: string, perLane: boolean) => {
    ctx.need(arr, `W.${arr}`);
    for (let i = 0; i < n; i++) out.push(perLane ? `${arr}[l * 3 + ${first + i}]` : `${arr}[${first + i}]`);
  };
  const masks: Record<string, string> = {
    SubgroupEqMask: '((1 << l) >>> 0)',
    SubgroupGeMask: '((~((1 << l) - 1)) >>> 0)',
    SubgroupGtMask: '((~(((1 << l) - 1) | (1 << l))) >>> 0)',
    SubgroupLeMask: '((((1 << l) - 1) | (1 << l)) >>> 0)',
    SubgroupLtMask: '(((1 << l) - 1) >>> 0)',
  };
  switch (name) {
    case 'LaunchId':
    case 'GlobalInvocationId':
      vec3('LID', true);
      return out;
    case 'LocalInvocationId':
      vec3('LOCID', true);
      return out;
    case 'LaunchSize':
      vec3('LSIZE', false);
      return out;
    case 'WorkgroupId':
      vec3('WGID', false);
      return out;
    case 'NumWorkgroups':
      vec3('NWG', false);
      return out;
    case 'LocalInvocationIndex':
      ctx.need('LII', 'W.LII');
      return ['LII[l]'];
    case 'SubgroupSize':
      return ['32'];
    case 'SubgroupLocalInvocationId':
      return ['l'];
    case 'SubgroupId':
      return ['W.subgroupId'];
    case 'NumSubgroups':
      return ['W.numSubgroups'];
  }
  const m = masks[name];
  if (m) {
    for (let i = 0; i < n; i++) out.push(first + i === 0 ? m : '0');
    return out;
  }
  const t = ctx.tmp('bi');
  ctx.line(`const ${t} = W.rtBuiltin(${JSON.stringify(name)}, l);`);
  for (let i = 0; i < n; i++) out.push(`${t}[${first + i}]`);
  return out;
}

/** Index check for fixed-length arrays / vectors; `idx` is a JS expression already bound. */
function checkIndex(ctx: EmitContext, inst: Inst, idx: string, len: number): void {
  ctx.line(`if (!(${idx} >= 0 && ${idx} < ${len})) W.indexOob(${ctx.site(inst)}, l, ${idx}, ${len});`);
}

function emitAccessChain(ctx: EmitContext, inst: InstOf<'accessChain'>): void {
  const base = ctx.ptrInfo(inst.base);
  const resultPointee = pointeeOfPtrType(ctx, inst.type);
  const types = ctx.module.types;
  ctx.setClass(OpClass.Alu);
  let cur = base.pointee;
  let mat: MatrixDecoration | undefined = base.mat;
  let vecStride: number | undefined = base.vecStride;
  let addr = ctx.read(inst.base, 0);
  let constOff = 0;
  const terms: string[] = [];
  let resultBase = base.base;
  let indices = inst.indices;

  const bindIdx = (v: ValueId): { expr: string; c: number | undefined } => {
    const c = ctx.constantValue(v);
    if (typeof c === 'number') return { expr: String(c), c };
    const t = ctx.tmp('i');
    ctx.line(`const ${t} = ${ctx.read(v, 0)};`);
    return { expr: t, c: undefined };
  };

  if (base.base.kind === 'builtin') {
    let leaf = base.base.leaf;
    for (const v of indices) {
      const c = ctx.constantValue(v);
      if (typeof c !== 'number') throw new SimError('unsupported', 'dynamic index into a built-in variable', { site: undefined });
      const t = typeOf(types, cur);
      const elem = t.kind === 'struct' ? t.members[c]!.type : t.kind === 'matrix' ? t.column : t.kind === 'vector' || t.kind === 'array' ? t.elem : cur;
      if (t.kind === 'struct') for (let i = 0; i < c; i++) leaf += ctx.layout.leavesOf(t.members[i]!.type).length;
      else leaf += c * ctx.layout.leavesOf(elem).length;
      cur = elem;
    }
    ctx.setPtrInfo(inst.id, { base: { kind: 'builtin', builtin: base.base.builtin, leaf }, pointee: resultPointee });
    ctx.def(inst.id, ['0']);
    return;
  }

  if (base.base.kind === 'handle' || base.base.kind === 'bufferArray') {
    const t = typeOf(types, cur);
    if (t.kind !== 'array' && t.kind !== 'runtimeArray') throw new SimError('internal', 'descriptor array access chain on a non-array');
    const gi = base.base.global;
    ctx.need(`GC${gi}`, `W.env.globalCount[${gi}]`);
    const { expr } = bindIdx(indices[0]!);
    ctx.line(`if (!(${expr} >= 0 && ${expr} < GC${gi})) W.indexOob(${ctx.site(inst)}, l, ${expr}, GC${gi});`);
    cur = t.elem;
    indices = indices.slice(1);
    if (base.base.kind === 'handle') {
      if (indices.length > 0) throw new SimError('unsupported', 'access chain past an opaque handle');
      ctx.setPtrInfo(inst.id, { base: base.base, pointee: resultPointee });
      ctx.def(inst.id, [`(${addr} + ${expr})`]);
      return;
    }
    ctx.need(`BA${gi}`, `W.env.globalArrays[${gi}]`);
    addr = `BA${gi}[${expr}].base`;
    resultBase = { kind: 'shared', space: base.base.space };
  }

  for (const v of indices) {
    const t = typeOf(types, cur);
    switch (t.kind) {
      case 'struct': {
        const c = ctx.constantValue(v);
        if (typeof c !== 'number') throw new SimError('internal', 'struct member index must be a constant');
        constOff += ctx.layout.memberOffset(cur, c);
        const m = t.members[c]!;
        mat = m.matrixStride !== undefined ? { stride: m.matrixStride, rowMajor: !!m.rowMajor } : undefined;
        cur = m.type;
        break;
      }
      case 'array':
      case 'runtimeArray': {
        const stride = ctx.layout.strideOf(cur);
        const { expr, c } = bindIdx(v);
        if (t.kind === 'array') {
          if (c === undefined || c < 0 || c >= t.length) checkIndex(ctx, inst, expr, t.length);
        } else if (c === undefined) {
          ctx.line(`if (${expr} < 0) W.indexOob(${ctx.site(inst)}, l, ${expr}, -1);`);
        }
        if (c !== undefined) constOff += c * stride;
        else terms.push(`${expr} * ${stride}`);
        cur = t.elem;
        break;
      }
      case 'vector': {
        const eb = vecStride ?? LayoutTable.leafBytes(ctx.layout.leavesOf(t.elem)[0]!);
        vecStride = undefined;
        const { expr, c } = bindIdx(v);
        if (c === undefined || c < 0 || c >= t.count) checkIndex(ctx, inst, expr, t.count);
        if (c !== undefined) constOff += c * eb;
        else terms.push(`${expr} * ${eb}`);
        cur = t.elem;
        break;
      }
      case 'matrix': {
        const rows = ctx.layout.leavesOf(t.column).length;
        // Row-major: column c starts at c * 4 and its components are a matrix stride apart.
        const stride = mat?.rowMajor ? 4 : (mat?.stride ?? rows * 4);
        if (mat?.rowMajor) vecStride = mat.stride;
        const { expr, c } = bindIdx(v);
        if (c === undefined || c < 0 || c >= t.columns) checkIndex(ctx, inst, expr, t.columns);
        if (c !== undefined) constOff += c * stride;
        else terms.push(`${expr} * ${stride}`);
        cur = t.column;
        mat = undefined;
        break;
      }
      default:
        throw new SimError('internal', `access chain into ${t.kind}`);
    }
  }
  const parts = [addr];
  if (constOff !== 0) parts.push(String(constOff));
  parts.push(...terms);
  const p: PtrInfo = { base: resultBase, pointee: resultPointee };
  if (mat) p.mat = mat;
  if (vecStride !== undefined) p.vecStride = vecStride;
  ctx.setPtrInfo(inst.id, p);
  ctx.def(inst.id, [parts.length === 1 ? parts[0]! : `(${parts.join(' + ')})`]);
}

function emitArrayLength(ctx: EmitContext, inst: InstOf<'arrayLength'>): void {
  const info = ctx.ptrInfo(inst.ptr);
  const t = typeOf(ctx.module.types, info.pointee);
  if (t.kind !== 'struct') throw new SimError('internal', 'arrayLength of a non-struct');
  const m = t.members[inst.member]!;
  const off = ctx.layout.memberOffset(info.pointee, inst.member);
  const stride = ctx.layout.strideOf(m.type);
  const a = ctx.tmp('a');
  ctx.line(`const ${a} = ${ctx.read(inst.ptr, 0)};`);
  const b = info.base;
  let rg = `W.findRegion(${a}, 0, ${ctx.site(inst)}, l)`;
  if (b.kind === 'shared' && b.region !== undefined) {
    rg = `RG${b.region}`;
    ctx.need(rg, `W.env.globalRegion[${b.region}]`);
  }
  ctx.def(inst.id, [`(Math.max(0, Math.floor((${rg}.base + ${rg}.size - ${a} - ${off}) / ${stride})) >>> 0)`]);
}

function emitAtomic(ctx: EmitContext, inst: InstOf<'atomic'>): void {
  const info = ctx.ptrInfo(inst.ptr);
  const k = ctx.layout.leavesOf(info.pointee)[0]!;
  if (k !== 'i32' && k !== 'u32' && k !== 'f32') throw new SimError('unsupported', `atomic on ${k} values`);
  const vals = [inst.value, inst.comparator].map((v) => (v === undefined ? undefined : ctx.read(v, 0)));
  const acc = beginAccess(ctx, inst, inst.ptr, 4, inst.kind === 'load' ? 'load' : inst.kind === 'store' ? 'store' : 'atomic');
  ctx.setClass(OpClass.Memory);
  const arr = k === 'f32' ? acc.F : k === 'i32' ? acc.I : acc.U;
  const cell = `${arr}[${acc.w}]`;
  const old = ctx.tmp('old');
  ctx.line(`const ${old} = ${cell};`);
  const v = vals[0];
  const wrapK = (e: string) => (k === 'f32' ? `Math.fround(${e})` : k === 'i32' ? `((${e}) | 0)` : `((${e}) >>> 0)`);
  switch (inst.kind) {
    case 'load':
      break;
    case 'store':
    case 'exchange':
      ctx.line(`${cell} = ${v};`);
      break;
    case 'compareExchange':
      ctx.line(`if (${old} === ${vals[1]}) ${cell} = ${v};`);
      break;
    case 'add':
      ctx.line(`${cell} = ${wrapK(`${old} + ${v}`)};`);
      break;
    case 'sub':
      ctx.line(`${cell} = ${wrapK(`${old} - ${v}`)};`);
      break;
    case 'min':
      ctx.line(`${cell} = Math.min(${old}, ${v});`);
      break;
    case 'max':
      ctx.line(`${cell} = Math.max(${old}, ${v});`);
      break;
    case 'and':
      ctx.line(`${cell} = ${old} & ${v};`);
      break;
    case 'or':
      ctx.line(`${cell} = ${old} | ${v};`);
      break;
    case 'xor':
      ctx.line(`${cell} = ${old} ^ ${v};`);
      break;
  }
  if (inst.kind !== 'store') ctx.def(inst.id, [old]);
}

/** Emits memory instructions; false when `inst` belongs to another emitter. */
export function emitMemory(ctx: EmitContext, inst: Inst): boolean {
  switch (inst.op) {
    case 'load': {
      const pointee = pointeeOfPtrType(ctx, ctx.typeOfValue(inst.ptr));
      ctx.def(inst.id, loadThrough(ctx, inst, inst.ptr, pointee));
      return true;
    }
    case 'store':
      storeThrough(ctx, inst, inst.ptr, ctx.leaves(inst.value).map((_, i) => ctx.read(inst.value, i)));
      return true;
    case 'accessChain':
      emitAccessChain(ctx, inst);
      return true;
    case 'arrayLength':
      emitArrayLength(ctx, inst);
      return true;
    case 'convertUToPtr': {
      const pt = typeOf(ctx.module.types, inst.type);
      if (pt.kind !== 'pointer') throw new SimError('internal', 'convertUToPtr to a non-pointer');
      ctx.setPtrInfo(inst.id, { base: { kind: 'shared', space: 'global' }, pointee: pt.pointee });
      ctx.def(inst.id, [ctx.read(inst.value, 0)]);
      return true;
    }
    case 'convertPtrToU':
    case 'convertUToAccel':
      ctx.def(inst.id, [ctx.read(inst.value, 0)]);
      return true;
    case 'atomic':
      emitAtomic(ctx, inst);
      return true;
    default:
      return false;
  }
}
