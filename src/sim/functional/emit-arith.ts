/**
 * Emitters for arithmetic, conversions and composite instructions (everything that is pure and
 * per lane). Each emitter turns one instruction into `ctx.def` calls of scalar JS expressions, one
 * per result leaf (vectors scalarised, matrices column-major). Float results are rounded to f32
 * after every operation; integer results are wrapped to 32 bits (`|0`, `>>>0`, Math.imul).
 * The runtime helpers are reached through the prelude name `X` (shader-math.ts).
 */
import type { FloatModel } from './float-model.js';
import type { Inst, InstOf, ValueId } from '../../ir/inst.js';
import { typeOf, type TypeId } from '../../ir/types.js';
import { OpClass } from '../warp-step.js';
import type { EmitContext } from './emit-context.js';
import type { LeafKind } from './layout.js';
import { SimError } from './errors.js';

export function isFloat(k: LeafKind): boolean {
  return k === 'f32' || k === 'f64';
}

/** Wraps `e` so the result is a valid value of leaf kind k. */
export function wrap(k: LeafKind, e: string): string {
  switch (k) {
    case 'f32':
      return `Math.fround(${e})`;
    case 'i32':
      return `((${e}) | 0)`;
    case 'u32':
      return `((${e}) >>> 0)`;
    default:
      return `(${e})`;
  }
}

function fr(e: string): string {
  return `Math.fround(${e})`;
}

/** Sum of products a[i]*b[i] in f32, left to right. */
function fdot(as: string[], bs: string[]): string {
  let acc = fr(`${as[0]} * ${bs[0]}`);
  for (let i = 1; i < as.length; i++) acc = fr(`${acc} + ${fr(`${as[i]} * ${bs[i]}`)}`);
  return acc;
}

function vals(ctx: EmitContext, v: ValueId): string[] {
  return ctx.leaves(v).map((_, k) => ctx.read(v, k));
}

/** Leaf k of v, broadcasting a scalar operand over vector results. */
function at(ctx: EmitContext, v: ValueId, k: number): string {
  return ctx.read(v, ctx.leaves(v).length === 1 ? 0 : k);
}

function matDims(ctx: EmitContext, ty: TypeId): { cols: number; rows: number } {
  const t = typeOf(ctx.module.types, ty);
  if (t.kind !== 'matrix') throw new SimError('internal', 'expected a matrix type');
  return { cols: t.columns, rows: ctx.layout.leavesOf(t.column).length };
}

/** Cached expressions must be evaluated once: binds them to temporaries. */
function hoist(ctx: EmitContext, exprs: string[]): string[] {
  return exprs.map((e) => {
    if (/^[A-Za-z_$][\w$]*$/.test(e) || /^\(?-?[\d.e+-]+\)?$/.test(e)) return e;
    const t = ctx.tmp('h');
    ctx.line(`const ${t} = ${e};`);
    return t;
  });
}

function binaryScalar(kind: string, k: LeafKind, a: string, b: string, floatModel: FloatModel): string {
  const f = isFloat(k);
  const is64 = k === 'i64' || k === 'u64';
  switch (kind) {
    case 'add':
      return wrap(k, `${a} + ${b}`);
    case 'sub':
      return wrap(k, `${a} - ${b}`);
    case 'mul':
      if (f || is64) return wrap(k, `${a} * ${b}`);
      return k === 'u32' ? `(Math.imul(${a}, ${b}) >>> 0)` : `Math.imul(${a}, ${b})`;
    case 'div':
      // GPU compilers divide by multiplying with the rounded reciprocal (float-model.ts).
      if (f) return wrap(k, floatModel === 'gpu' && k === 'f32' ? `${a} * Math.fround(1 / ${b})` : `${a} / ${b}`);
      if (is64) return `Math.trunc(${a} / ${b})`;
      return k === 'u32' ? `X.udiv(${a}, ${b})` : `X.sdiv(${a}, ${b})`;
    case 'rem':
      if (f) return wrap(k, `${a} % ${b}`);
      if (is64) return `(${a} % ${b})`;
      return k === 'u32' ? `X.urem(${a}, ${b})` : `X.srem(${a}, ${b})`;
    case 'mod':
      if (f) return `X.fmod(${a}, ${b})`;
      return k === 'u32' || k === 'u64' ? `X.urem(${a}, ${b})` : `X.smod(${a}, ${b})`;
    case 'shl':
      if (is64) return `(${a} * 2 ** ${b})`;
      return k === 'u32' ? `((${a} << ${b}) >>> 0)` : `(${a} << ${b})`;
    case 'shr':
      if (is64) return `Math.floor(${a} / 2 ** ${b})`;
      return k === 'u32' ? `(${a} >>> ${b})` : `(${a} >> ${b})`;
    case 'and':
      if (k === 'bool') return `(${a} && ${b})`;
      return k === 'u32' ? `((${a} & ${b}) >>> 0)` : `(${a} & ${b})`;
    case 'or':
      if (k === 'bool') return `(${a} || ${b})`;
      return k === 'u32' ? `((${a} | ${b}) >>> 0)` : `(${a} | ${b})`;
    case 'xor':
      if (k === 'bool') return `(!${a} !== !${b})`;
      return k === 'u32' ? `((${a} ^ ${b}) >>> 0)` : `(${a} ^ ${b})`;
  }
  throw new SimError('internal', `binary ${kind} is not component-wise`);
}

function emitBinary(ctx: EmitContext, inst: InstOf<'binary'>): void {
  const rk = ctx.layout.leavesOf(inst.type);
  const ak = ctx.leaves(inst.a);
  switch (inst.kind) {
    case 'vectorTimesScalar':
    case 'matrixTimesScalar': {
      const s = ctx.read(inst.b, 0);
      ctx.def(inst.id, ak.map((_, i) => fr(`${ctx.read(inst.a, i)} * ${s}`)));
      return;
    }
    case 'dot':
      ctx.def(inst.id, [fdot(vals(ctx, inst.a), vals(ctx, inst.b))]);
      return;
    case 'matrixTimesVector': {
      const { cols, rows } = matDims(ctx, ctx.typeOfValue(inst.a));
      const m = vals(ctx, inst.a);
      const v = hoist(ctx, vals(ctx, inst.b));
      const out: string[] = [];
      for (let r = 0; r < rows; r++) out.push(fdot(Array.from({ length: cols }, (_, c) => m[c * rows + r]!), v));
      ctx.def(inst.id, out);
      return;
    }
    case 'vectorTimesMatrix': {
      const { cols, rows } = matDims(ctx, ctx.typeOfValue(inst.b));
      const m = vals(ctx, inst.b);
      const v = hoist(ctx, vals(ctx, inst.a));
      const out: string[] = [];
      for (let c = 0; c < cols; c++) out.push(fdot(v, m.slice(c * rows, c * rows + rows)));
      ctx.def(inst.id, out);
      return;
    }
    case 'matrixTimesMatrix': {
      const A = matDims(ctx, ctx.typeOfValue(inst.a));
      const B = matDims(ctx, ctx.typeOfValue(inst.b));
      const a = hoist(ctx, vals(ctx, inst.a));
      const b = hoist(ctx, vals(ctx, inst.b));
      const out: string[] = [];
      for (let c = 0; c < B.cols; c++) {
        for (let r = 0; r < A.rows; r++) {
          out.push(fdot(Array.from({ length: A.cols }, (_, k) => a[k * A.rows + r]!), b.slice(c * B.rows, c * B.rows + B.rows)));
        }
      }
      ctx.def(inst.id, out);
      return;
    }
    case 'outerProduct': {
      const a = vals(ctx, inst.a);
      const b = vals(ctx, inst.b);
      const out: string[] = [];
      for (let c = 0; c < b.length; c++) for (let r = 0; r < a.length; r++) out.push(fr(`${a[r]} * ${b[c]}`));
      ctx.def(inst.id, out);
      return;
    }
    default: {
      const k = ak[0]!;
      const f = isFloat(k);
      if (f && (inst.kind === 'div' || inst.kind === 'rem' || inst.kind === 'mod')) ctx.setClass(OpClass.Sfu);
      ctx.def(inst.id, rk.map((_, i) => binaryScalar(inst.kind, k, at(ctx, inst.a, i), at(ctx, inst.b, i), ctx.floatModel)));
    }
  }
}

function emitUnary(ctx: EmitContext, inst: InstOf<'unary'>): void {
  const ks = ctx.leaves(inst.a);
  if (inst.kind === 'transpose') {
    const { cols, rows } = matDims(ctx, ctx.typeOfValue(inst.a));
    const a = vals(ctx, inst.a);
    const out: string[] = [];
    for (let c = 0; c < rows; c++) for (let r = 0; r < cols; r++) out.push(a[r * rows + c]!);
    ctx.def(inst.id, out);
    return;
  }
  ctx.def(
    inst.id,
    ks.map((k, i) => {
      const a = ctx.read(inst.a, i);
      if (inst.kind === 'neg') return isFloat(k) ? `(-${a})` : wrap(k, `-${a}`);
      if (k === 'bool') return `!${a}`;
      return k === 'u32' ? `(~${a} >>> 0)` : `(~${a})`;
    }),
  );
}

const CMP: Record<string, string> = { eq: '===', ne: '!==', lt: '<', le: '<=', gt: '>', ge: '>=' };

function emitCompare(ctx: EmitContext, inst: InstOf<'compare'>): void {
  const ks = ctx.leaves(inst.a);
  ctx.def(
    inst.id,
    ks.map((k, i) => {
      const a = ctx.read(inst.a, i);
      const b = ctx.read(inst.b, i);
      if (k === 'bool') return `(!${a} ${CMP[inst.kind]} !${b})`;
      return `(${a} ${CMP[inst.kind]} ${b})`;
    }),
  );
}

function emitTest(ctx: EmitContext, inst: InstOf<'test'>): void {
  const a = vals(ctx, inst.a);
  switch (inst.kind) {
    case 'any':
      ctx.def(inst.id, [`!!(${a.join(' || ')})`]);
      return;
    case 'all':
      ctx.def(inst.id, [`!!(${a.join(' && ')})`]);
      return;
    case 'isnan':
      ctx.def(inst.id, a.map((x) => `(${x} !== ${x})`));
      return;
    case 'isinf':
      ctx.def(inst.id, a.map((x) => `(${x} === Infinity || ${x} === -Infinity)`));
      return;
  }
}

function intWidth(ctx: EmitContext, ty: TypeId): number {
  const t = typeOf(ctx.module.types, ty);
  const s = t.kind === 'vector' ? typeOf(ctx.module.types, t.elem) : t;
  return s.kind === 'int' || s.kind === 'float' ? s.width : 32;
}

function convertScalar(from: LeafKind, to: LeafKind, toWidth: number, a: string): string {
  if (to === 'bool') return `(${a} !== 0)`;
  if (from === 'bool') {
    if (to === 'f32' || to === 'f64') return `(${a} ? 1 : 0)`;
    return `(${a} ? 1 : 0)`;
  }
  if (isFloat(to)) {
    if (toWidth === 16) return `X.toHalfPrecision(${a})`;
    return to === 'f32' ? fr(a) : a;
  }
  if (isFloat(from)) {
    if (to === 'i32') return narrow(`X.f2i(${a})`, toWidth, true);
    if (to === 'u32') return narrow(`X.f2u(${a})`, toWidth, false);
    return `Math.trunc(${a})`;
  }
  // int -> int
  if (to === 'i32') return narrow(from === 'i64' || from === 'u64' ? `X.lo32i(${a})` : `(${a} | 0)`, toWidth, true);
  if (to === 'u32') return narrow(from === 'i64' || from === 'u64' ? `X.lo32u(${a})` : `(${a} >>> 0)`, toWidth, false);
  return a;
}

function narrow(e: string, width: number, signed: boolean): string {
  if (width === 8) return signed ? `((${e} << 24) >> 24)` : `(${e} & 255)`;
  if (width === 16) return signed ? `((${e} << 16) >> 16)` : `(${e} & 65535)`;
  return e;
}

function emitConvert(ctx: EmitContext, inst: InstOf<'convert'>): void {
  const from = ctx.leaves(inst.value);
  const to = ctx.layout.leavesOf(inst.type);
  const w = intWidth(ctx, inst.type);
  ctx.def(inst.id, to.map((k, i) => convertScalar(from[i]!, k, w, ctx.read(inst.value, i))));
}

function emitBitcast(ctx: EmitContext, inst: InstOf<'bitcast'>): void {
  const from = ctx.leaves(inst.value);
  const to = ctx.layout.leavesOf(inst.type);
  if (from.length === to.length) {
    ctx.def(
      inst.id,
      to.map((k, i) => {
        const a = ctx.read(inst.value, i);
        const f = from[i]!;
        if (f === k || (f === 'ptr' && k === 'u64') || (f === 'u64' && k === 'ptr')) return a;
        if (f === 'f32') return k === 'i32' ? `(X.fbits(${a}) | 0)` : `X.fbits(${a})`;
        if (k === 'f32') return `X.bitsf(${a})`;
        if (k === 'i32') return `(${a} | 0)`;
        if (k === 'u32') return `(${a} >>> 0)`;
        return `X.bitcastLeaves([${JSON.stringify(f)}], [${JSON.stringify(k)}], [${a}])[0]`;
      }),
    );
    return;
  }
  const t = ctx.tmp('bc');
  ctx.line(`const ${t} = X.bitcastLeaves(${JSON.stringify(from)}, ${JSON.stringify(to)}, [${vals(ctx, inst.value).join(', ')}]);`);
  ctx.def(inst.id, to.map((_, i) => `${t}[${i}]`));
}

/** First leaf and leaf count of the sub-value at `indices` of a composite of type `ty`. */
export function leafRange(ctx: EmitContext, ty: TypeId, indices: readonly number[]): { start: number; count: number; type: TypeId } {
  let start = 0;
  let cur = ty;
  for (const idx of indices) {
    const t = typeOf(ctx.module.types, cur);
    let elem: TypeId;
    if (t.kind === 'struct') {
      for (let i = 0; i < idx; i++) start += ctx.layout.leavesOf(t.members[i]!.type).length;
      elem = t.members[idx]!.type;
    } else if (t.kind === 'vector' || t.kind === 'array' || t.kind === 'matrix') {
      elem = t.kind === 'matrix' ? t.column : t.elem;
      start += idx * ctx.layout.leavesOf(elem).length;
    } else {
      throw new SimError('internal', `cannot index into ${t.kind}`);
    }
    cur = elem;
  }
  return { start, count: ctx.layout.leavesOf(cur).length, type: cur };
}

function emitComposite(ctx: EmitContext, inst: Inst): boolean {
  switch (inst.op) {
    case 'construct': {
      const out: string[] = [];
      for (const p of inst.parts) out.push(...vals(ctx, p));
      const n = ctx.layout.leavesOf(inst.type).length;
      // A scalar constructing a vector/matrix splats (front ends usually expand this themselves).
      if (out.length === 1 && n > 1) ctx.def(inst.id, Array.from({ length: n }, () => out[0]!));
      else ctx.def(inst.id, out);
      return true;
    }
    case 'extract': {
      const r = leafRange(ctx, ctx.typeOfValue(inst.value), inst.indices);
      ctx.def(inst.id, Array.from({ length: r.count }, (_, i) => ctx.read(inst.value, r.start + i)));
      return true;
    }
    case 'insert': {
      const r = leafRange(ctx, ctx.typeOfValue(inst.composite), inst.indices);
      const n = ctx.leaves(inst.composite).length;
      ctx.def(
        inst.id,
        Array.from({ length: n }, (_, i) => (i >= r.start && i < r.start + r.count ? ctx.read(inst.object, i - r.start) : ctx.read(inst.composite, i))),
      );
      return true;
    }
    case 'shuffle': {
      const all = [...vals(ctx, inst.a), ...vals(ctx, inst.b)];
      ctx.def(inst.id, inst.components.map((c) => all[c] ?? '0'));
      return true;
    }
    case 'extractDynamic': {
      const n = ctx.leaves(inst.value).length;
      const i = ctx.tmp('ix');
      ctx.line(`const ${i} = ${ctx.read(inst.index, 0)};`);
      ctx.line(`if (!(${i} >= 0 && ${i} < ${n})) W.indexOob(${ctx.site(inst)}, l, ${i}, ${n});`);
      let e = ctx.read(inst.value, n - 1);
      for (let k = n - 2; k >= 0; k--) e = `(${i} === ${k} ? ${ctx.read(inst.value, k)} : ${e})`;
      ctx.def(inst.id, [e]);
      return true;
    }
    case 'insertDynamic': {
      const n = ctx.leaves(inst.composite).length;
      const i = ctx.tmp('ix');
      ctx.line(`const ${i} = ${ctx.read(inst.index, 0)};`);
      ctx.line(`if (!(${i} >= 0 && ${i} < ${n})) W.indexOob(${ctx.site(inst)}, l, ${i}, ${n});`);
      const v = hoist(ctx, [ctx.read(inst.value, 0)])[0]!;
      ctx.def(inst.id, Array.from({ length: n }, (_, k) => `(${i} === ${k} ? ${v} : ${ctx.read(inst.composite, k)})`));
      return true;
    }
    case 'copyObject':
      ctx.def(inst.id, vals(ctx, inst.value));
      return true;
    case 'undef':
      ctx.def(inst.id, ctx.layout.leavesOf(inst.type).map(() => '0'));
      return true;
    case 'select': {
      const cl = ctx.leaves(inst.cond).length;
      const n = ctx.leaves(inst.a).length;
      if (cl === 1 && n > 1) {
        const c = hoist(ctx, [ctx.read(inst.cond, 0)])[0]!;
        ctx.def(inst.id, Array.from({ length: n }, (_, i) => `(${c} ? ${ctx.read(inst.a, i)} : ${ctx.read(inst.b, i)})`));
      } else {
        ctx.def(inst.id, Array.from({ length: n }, (_, i) => `(${ctx.read(inst.cond, i)} ? ${ctx.read(inst.a, i)} : ${ctx.read(inst.b, i)})`));
      }
      return true;
    }
    default:
      return false;
  }
}

export function emitBits(ctx: EmitContext, inst: InstOf<'bits'>): void {
  const ks = ctx.layout.leavesOf(inst.type);
  const a = (j: number, i: number) => at(ctx, inst.args[j]!, i);
  ctx.def(
    inst.id,
    ks.map((k, i) => {
      switch (inst.fn) {
        case 'bitCount':
          return `X.bitCount(${a(0, i)})`;
        case 'bitfieldReverse':
          return wrap(k, `X.bitfieldReverse(${a(0, i)})`);
        case 'bitfieldExtract':
          return k === 'i32' ? `X.bitfieldExtractS(${a(0, i)}, ${a(1, 0)}, ${a(2, 0)})` : `X.bitfieldExtractU(${a(0, i)}, ${a(1, 0)}, ${a(2, 0)})`;
        case 'bitfieldInsert':
          return wrap(k, `X.bitfieldInsert(${a(0, i)}, ${a(1, i)}, ${a(2, 0)}, ${a(3, 0)})`);
      }
    }),
  );
}

/** Emits arithmetic / composite instructions; false when `inst` belongs to another emitter. */
export function emitArith(ctx: EmitContext, inst: Inst): boolean {
  switch (inst.op) {
    case 'binary':
      emitBinary(ctx, inst);
      return true;
    case 'unary':
      emitUnary(ctx, inst);
      return true;
    case 'compare':
      emitCompare(ctx, inst);
      return true;
    case 'test':
      emitTest(ctx, inst);
      return true;
    case 'convert':
      emitConvert(ctx, inst);
      return true;
    case 'bitcast':
      emitBitcast(ctx, inst);
      return true;
    case 'bits':
      emitBits(ctx, inst);
      return true;
    default:
      return emitComposite(ctx, inst);
  }
}

