/**
 * Constant folding of GLSL constant expressions: array sizes, `const` initializers, specialization
 * constant defaults, case labels, layout qualifier values. Works on the AST, so it needs no IR.
 *
 * A `ConstValue` is a scalar (`scalar` holds a JS number for 32-bit and smaller ints and floats,
 * bigint for 64-bit ints, boolean for bool) or a composite (`parts`, one per vector component,
 * matrix column, array element or struct member). Values are always normalised to their type:
 * ints wrapped to their width, floats rounded to f32.
 */
import type { Expr } from '../ast.js';
import { postOrder } from '../expr-walk.js';
import type { TypeId } from '../../../ir/types.js';
import type { GlslTypes } from './glsl-types.js';
import { commonScalar } from './conversions.js';

export interface ConstValue {
  type: TypeId;
  scalar?: number | bigint | boolean;
  parts?: ConstValue[];
}

export interface ConstEnv {
  types: GlslTypes;
  /** Value of a named constant in scope, if it has one. */
  lookup(name: string): ConstValue | undefined;
  /** Type of a struct or built-in type name (constructors); undefined if not a type. */
  resolveType(name: string): TypeId | undefined;
}

export interface IntLiteral {
  value: number | bigint;
  kind: 'int' | 'uint' | 'int64' | 'uint64';
}

/** Parses `12`, `0x1Fu`, `017`, `5ul`, `3l`. Out-of-range 32-bit literals wrap like glslang's. */
export function parseIntLiteral(text: string): IntLiteral | undefined {
  const m = /^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)([uU]?)([lL]?)([uU]?)$/.exec(text);
  if (!m) return undefined;
  const digits = m[1]!;
  const big = digits.length > 1 && digits[0] === '0' && !/[xX]/.test(digits) ? BigInt('0o' + digits.slice(1)) : BigInt(digits);
  const unsigned = m[2] !== '' || m[4] !== '';
  if (m[3] !== '') return unsigned ? { value: BigInt.asUintN(64, big), kind: 'uint64' } : { value: BigInt.asIntN(64, big), kind: 'int64' };
  if (big > 0xffffffffn) return undefined;
  return unsigned ? { value: Number(big), kind: 'uint' } : { value: Number(BigInt.asIntN(32, big)), kind: 'int' };
}

export interface FloatLiteral {
  value: number;
  kind: 'float' | 'double' | 'float16';
}

export function parseFloatLiteral(text: string): FloatLiteral | undefined {
  const m = /^([0-9]*\.?[0-9]*(?:[eE][+-]?[0-9]+)?)(f|F|lf|LF|hf|HF)?$/.exec(text);
  if (!m || m[1] === '' || m[1] === '.') return undefined;
  const v = Number(m[1]);
  if (Number.isNaN(v)) return undefined;
  const suffix = (m[2] ?? '').toLowerCase();
  if (suffix === 'lf') return { value: v, kind: 'double' };
  if (suffix === 'hf') return { value: v, kind: 'float16' };
  return { value: Math.fround(v), kind: 'float' };
}

/** Converts a scalar JS value to the representation of scalar type `to`. */
export function convertScalar(types: GlslTypes, v: number | bigint | boolean, to: TypeId): number | bigint | boolean {
  const t = types.get(to);
  if (t.kind === 'bool') return typeof v === 'bigint' ? v !== 0n : Boolean(v);
  const n = typeof v === 'boolean' ? (v ? 1 : 0) : v;
  if (t.kind === 'float') {
    const x = Number(n);
    return t.width === 32 ? Math.fround(x) : x;
  }
  if (t.kind === 'int') {
    const b = typeof n === 'bigint' ? n : BigInt(Math.trunc(Number.isFinite(n) ? n : 0));
    if (t.width === 64) return t.signed ? BigInt.asIntN(64, b) : BigInt.asUintN(64, b);
    const w = t.signed ? BigInt.asIntN(t.width, b) : BigInt.asUintN(t.width, b);
    return Number(w);
  }
  throw new Error(`not a scalar type: ${types.name(to)}`);
}

export function scalarConst(types: GlslTypes, type: TypeId, v: number | bigint | boolean): ConstValue {
  return { type, scalar: convertScalar(types, v, type) };
}

/** Flattened scalar components of a scalar, vector or matrix constant. */
export function constComponents(c: ConstValue): ConstValue[] {
  if (c.scalar !== undefined) return [c];
  return (c.parts ?? []).flatMap(constComponents);
}

/** Converts a scalar/vector/matrix constant to another component type, keeping its shape. */
export function convertConst(types: GlslTypes, c: ConstValue, to: TypeId): ConstValue {
  if (c.type === to) return c;
  const scalar = types.elementScalar(to);
  if (c.scalar !== undefined) {
    if (types.isScalar(to)) return scalarConst(types, to, c.scalar);
    // scalar -> vector splat (used for mixed scalar/vector operands)
    const n = types.components(to);
    return { type: to, parts: Array.from({ length: n }, () => scalarConst(types, scalar, c.scalar!)) };
  }
  const t = types.get(to);
  if (t.kind === 'matrix') return { type: to, parts: c.parts!.map((p) => convertConst(types, p, t.column)) };
  return { type: to, parts: c.parts!.map((p) => convertConst(types, p, scalar)) };
}

type Arith = (a: number | bigint | boolean, b: number | bigint | boolean) => number | bigint | boolean | undefined;

function arith(op: string, isFloat: boolean, isUnsigned: boolean): Arith | undefined {
  const num = (f: (a: number, b: number) => number | boolean, g: (a: bigint, b: bigint) => bigint | boolean): Arith => (a, b) => {
    if (typeof a === 'bigint' && typeof b === 'bigint') return g(a, b);
    return f(Number(a), Number(b));
  };
  switch (op) {
    case '+': return num((a, b) => a + b, (a, b) => a + b);
    case '-': return num((a, b) => a - b, (a, b) => a - b);
    case '*': return num((a, b) => (isFloat ? a * b : Math.imul(a, b)), (a, b) => a * b);
    case '/': return (a, b) => {
      if (isFloat) return Number(a) / Number(b);
      if (typeof a === 'bigint' && typeof b === 'bigint') return b === 0n ? undefined : a / b;
      if (Number(b) === 0) return undefined;
      return isUnsigned ? Math.floor((Number(a) >>> 0) / (Number(b) >>> 0)) : Math.trunc(Number(a) / Number(b));
    };
    case '%': return (a, b) => {
      if (typeof a === 'bigint' && typeof b === 'bigint') return b === 0n ? undefined : a % b;
      if (Number(b) === 0) return undefined;
      return isUnsigned ? (Number(a) >>> 0) % (Number(b) >>> 0) : Number(a) % Number(b);
    };
    case '<<': return num((a, b) => a << b, (a, b) => a << b);
    case '>>': return num((a, b) => (isUnsigned ? a >>> b : a >> b), (a, b) => a >> b);
    case '&': return num((a, b) => a & b, (a, b) => a & b);
    case '|': return num((a, b) => a | b, (a, b) => a | b);
    case '^': return num((a, b) => a ^ b, (a, b) => a ^ b);
    case '<': return (a, b) => a < b;
    case '<=': return (a, b) => a <= b;
    case '>': return (a, b) => a > b;
    case '>=': return (a, b) => a >= b;
    default: return undefined;
  }
}

/** Recursion depth of `evalConst` past which an expression is evaluated bottom-up instead. */
const CONST_RECURSION_LIMIT = 200;
/** Height of the subtrees evaluated ahead in a bottom-up evaluation. */
const CONST_STEP = 48;
const TOO_DEEP = Symbol('too deep');
/** Active `evalConst` calls (0: the next is an outermost one). */
let active = 0;
/** In a bottom-up evaluation: the values of the subtrees evaluated ahead. */
let ready: Map<Expr, ConstValue | undefined> | undefined;

/**
 * Evaluates `e` if it is a constant expression; undefined otherwise (never reports errors).
 * Recursive, but a constant expression too deep for the JavaScript stack (thousands of nested
 * parentheses or `?:` in generated code) is evaluated again bottom-up from an explicit stack,
 * each subtree of height CONST_STEP ahead of its parent: evaluation is pure, so order is free.
 */
export function evalConst(env: ConstEnv, e: Expr): ConstValue | undefined {
  if (ready !== undefined && ready.has(e)) return ready.get(e);
  if (active > 0) {
    // No try/finally (this is the hot path): a throw unwinds to the outermost call, which resets `active`.
    if (active > CONST_RECURSION_LIMIT) throw TOO_DEEP;
    active++;
    const v = evalConstNode(env, e);
    active--;
    return v;
  }
  active = 1;
  try {
    return evalConstNode(env, e);
  } catch (x) {
    if (x !== TOO_DEEP) throw x;
  } finally {
    active = 0;
  }
  const outer = ready;
  ready = new Map();
  try {
    postOrder<number>(e, (node, kids) => {
      const height = 1 + Math.max(0, ...kids);
      if (height < CONST_STEP) return height;
      active = 1;
      ready!.set(node, evalConstNode(env, node));
      active = 0;
      return 1;
    });
    return ready.get(e) ?? (ready.has(e) ? undefined : evalConstAtTop(env, e));
  } finally {
    ready = outer;
    active = 0;
  }
}

function evalConstAtTop(env: ConstEnv, e: Expr): ConstValue | undefined {
  active = 1;
  return evalConstNode(env, e);
}

function evalConstNode(env: ConstEnv, e: Expr): ConstValue | undefined {
  const { types } = env;
  switch (e.kind) {
    case 'intLit': {
      const lit = parseIntLiteral(e.text);
      if (!lit) return undefined;
      return scalarConst(types, types.scalar(lit.kind), lit.value);
    }
    case 'floatLit': {
      const lit = parseFloatLiteral(e.text);
      if (!lit) return undefined;
      return scalarConst(types, types.scalar(lit.kind), lit.value);
    }
    case 'boolLit':
      return { type: types.bool, scalar: e.value };
    case 'ident':
      return env.lookup(e.name);
    case 'unary': {
      const v = evalConst(env, e.operand);
      if (!v) return undefined;
      const scalar = types.elementScalar(v.type);
      const map = (f: (x: number | bigint | boolean) => number | bigint | boolean): ConstValue =>
        v.scalar !== undefined ? scalarConst(types, v.type, f(v.scalar)) : { type: v.type, parts: v.parts!.map((p) => scalarConst(types, scalar, f(p.scalar!))) };
      if (!types.isScalarOrVector(v.type)) return undefined;
      if (e.op === '+') return v;
      if (e.op === '-') return map((x) => (typeof x === 'bigint' ? -x : -Number(x)));
      if (e.op === '~') return map((x) => (typeof x === 'bigint' ? ~x : ~Number(x)));
      if (e.op === '!') return v.scalar !== undefined ? { type: types.bool, scalar: !v.scalar } : undefined;
      return undefined;
    }
    case 'binary':
      return evalBinary(env, e.op, e.left, e.right);
    case 'ternary': {
      const c = evalConst(env, e.cond);
      if (!c || typeof c.scalar !== 'boolean') return undefined;
      return evalConst(env, c.scalar ? e.then : e.else);
    }
    case 'call':
      return evalConstructor(env, e);
    case 'member': {
      const v = evalConst(env, e.object);
      if (!v || !v.parts) return undefined;
      if (types.isVector(v.type)) {
        const idx = [...e.member].map((ch) => 'xyzwrgbastpq'.indexOf(ch) % 4);
        if (idx.some((i) => i < 0 || i >= v.parts!.length)) return undefined;
        if (idx.length === 1) return v.parts[idx[0]!];
        return { type: types.vectorOf(types.elementScalar(v.type), idx.length), parts: idx.map((i) => v.parts![i]!) };
      }
      const st = types.get(v.type);
      if (st.kind === 'struct') {
        const i = st.members.findIndex((m) => m.name === e.member);
        return i >= 0 ? v.parts[i] : undefined;
      }
      return undefined;
    }
    case 'index': {
      const v = evalConst(env, e.object);
      const i = evalConst(env, e.index);
      if (!v?.parts || i?.scalar === undefined) return undefined;
      return v.parts[Number(i.scalar)];
    }
    case 'lengthOf': {
      const v = evalConst(env, e.object);
      if (v?.parts) return { type: types.int, scalar: v.parts.length };
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Left-associative chains (`1.0 + 1.0 + ...`, 20,000 terms in generated code) are walked down
 * their left spine iteratively, so the recursion depth is that of the right operands only.
 */
function evalBinary(env: ConstEnv, op: string, l: Expr, r: Expr): ConstValue | undefined {
  const spine: Extract<Expr, { kind: 'binary' }>[] = [];
  let base = l;
  while (base.kind === 'binary' && base.op !== '&&' && base.op !== '||' && base.op !== '^^') {
    spine.push(base);
    base = base.left;
  }
  let a = evalConst(env, base);
  for (let i = spine.length - 1; i >= 0 && a !== undefined; i--) a = evalBinaryValue(env, spine[i]!.op, a, spine[i]!.right);
  if (!a) return undefined;
  return evalBinaryValue(env, op, a, r);
}

function evalBinaryValue(env: ConstEnv, op: string, a: ConstValue, r: Expr): ConstValue | undefined {
  const { types } = env;
  if (op === '&&' || op === '||' || op === '^^') {
    if (typeof a.scalar !== 'boolean') return undefined;
    if (op === '&&' && !a.scalar) return a;
    if (op === '||' && a.scalar) return a;
    const b = evalConst(env, r);
    if (typeof b?.scalar !== 'boolean') return undefined;
    return { type: types.bool, scalar: op === '^^' ? a.scalar !== b.scalar : b.scalar };
  }
  const b = evalConst(env, r);
  if (!b) return undefined;
  return foldBinary(types, op, a, b);
}

/** Folds `a op b` for constant scalars/vectors; undefined when not foldable (e.g. division by zero). */
export function foldBinary(types: GlslTypes, op: string, a: ConstValue, b: ConstValue): ConstValue | undefined {
  if (op === '==' || op === '!=') {
    const eq = JSON.stringify(constComponents(a).map((c) => String(c.scalar))) === JSON.stringify(constComponents(b).map((c) => String(c.scalar)));
    return { type: types.bool, scalar: op === '==' ? eq : !eq };
  }
  if (!types.isScalarOrVector(a.type) || !types.isScalarOrVector(b.type)) return undefined;
  const scalar = op === '<<' || op === '>>' ? types.elementScalar(a.type) : commonScalar(types, a.type, b.type);
  if (scalar === undefined) return undefined;
  const na = types.components(a.type);
  const nb = types.components(b.type);
  if (na !== nb && na !== 1 && nb !== 1) return undefined;
  const n = Math.max(na, nb);
  const f = arith(op, types.isFloatKind(scalar), types.isUnsignedInt(scalar));
  if (!f) return undefined;
  const ca = constComponents(a);
  const cb = constComponents(b);
  const isCompare = op === '<' || op === '<=' || op === '>' || op === '>=';
  const out: ConstValue[] = [];
  for (let i = 0; i < n; i++) {
    const x = convertScalar(types, ca[na === 1 ? 0 : i]!.scalar!, scalar);
    const y = op === '<<' || op === '>>' ? convertScalar(types, cb[nb === 1 ? 0 : i]!.scalar!, types.is64Bit(scalar) ? scalar : types.uint) : convertScalar(types, cb[nb === 1 ? 0 : i]!.scalar!, scalar);
    const yy = typeof x === 'bigint' && typeof y !== 'bigint' ? BigInt(y as number) : y;
    const v = f(x, yy);
    if (v === undefined) return undefined;
    out.push(isCompare ? { type: types.bool, scalar: v } : scalarConst(types, scalar, v));
  }
  if (isCompare) return n === 1 ? out[0] : undefined;
  return n === 1 ? out[0] : { type: types.vectorOf(scalar, n), parts: out };
}

function evalConstructor(env: ConstEnv, e: Extract<Expr, { kind: 'call' }>): ConstValue | undefined {
  const { types } = env;
  if (e.calleeType && e.calleeType.arrayDims.length > 0) {
    const elem = env.resolveType(e.calleeType.name);
    if (elem === undefined) return undefined;
    const parts = e.args.map((a) => evalConst(env, a));
    if (parts.some((p) => !p)) return undefined;
    return { type: types.arrayOf(elem, parts.length), parts: parts.map((p) => convertConst(types, p!, elem)) };
  }
  const type = env.resolveType(e.callee);
  if (type === undefined) return undefined;
  const args = e.args.map((a) => evalConst(env, a));
  if (args.some((a) => !a)) return undefined;
  return constructConst(types, type, args as ConstValue[]);
}

/** Folds a constructor call `type(args...)` whose arguments are all constants. */
export function constructConst(types: GlslTypes, type: TypeId, args: ConstValue[]): ConstValue | undefined {
  const t = types.get(type);
  if (t.kind === 'struct') {
    if (args.length !== t.members.length) return undefined;
    return { type, parts: args.map((a, i) => (types.isScalarOrVector(a.type) ? convertConst(types, a, t.members[i]!.type) : a)) };
  }
  if (!types.isScalarOrVector(type) && t.kind !== 'matrix') return undefined;
  if (args.some((a) => !types.isScalarOrVector(a.type) && !types.isMatrix(a.type))) return undefined;
  const scalar = types.elementScalar(type);
  const flat = args.flatMap(constComponents).map((c) => scalarConst(types, scalar, c.scalar!));
  if (t.kind === 'matrix') {
    const { columns, rows } = types.matrixShape(type);
    const column = types.matrixColumn(type);
    if (args.length === 1 && args[0]!.scalar !== undefined) {
      const d = flat[0]!;
      return {
        type,
        parts: Array.from({ length: columns }, (_, c) => ({
          type: column,
          parts: Array.from({ length: rows }, (_, r) => (r === c ? d : scalarConst(types, scalar, 0))),
        })),
      };
    }
    if (args.length === 1 && types.isMatrix(args[0]!.type)) return undefined;
    if (flat.length < columns * rows) return undefined;
    return { type, parts: Array.from({ length: columns }, (_, c) => ({ type: column, parts: flat.slice(c * rows, c * rows + rows) })) };
  }
  const n = types.components(type);
  if (n === 1) return flat[0];
  if (args.length === 1 && args[0]!.scalar !== undefined) return { type, parts: Array.from({ length: n }, () => flat[0]!) };
  if (flat.length < n) return undefined;
  return { type, parts: flat.slice(0, n) };
}
