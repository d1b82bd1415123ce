/**
 * GLSL 4.60 implicit conversions (section 4.1.10, extended by GL_EXT_shader_explicit_arithmetic_types
 * for 64-bit integers) and the ranking overload resolution uses (section 6.1).
 *
 * Only scalars, vectors and matrices convert, component type to component type, keeping the shape.
 * Rank: 0 exact; 1 float -> double promotion; 2 integral conversions (int -> uint, widening);
 * 3 integral -> float; 4 anything -> double. Lower is better.
 */
import type { TypeId } from '../../../ir/types.js';
import type { GlslTypes } from './glsl-types.js';

/** Allowed implicit scalar conversions: from -> to -> rank. Names as `GlslTypes.name` spells scalars. */
const SCALAR_CONVERSIONS: Record<string, Record<string, number>> = {
  int: { uint: 2, int64_t: 2, uint64_t: 2, float: 3, double: 4 },
  uint: { uint64_t: 2, float: 3, double: 4 },
  int64_t: { uint64_t: 2, double: 4 },
  uint64_t: { double: 4 },
  float: { double: 1 },
  int16_t: { int: 2, uint: 2, int64_t: 2, uint64_t: 2, float: 3, double: 4, uint16_t: 2 },
  uint16_t: { uint: 2, int: 2, int64_t: 2, uint64_t: 2, float: 3, double: 4 },
  float16_t: { float: 1, double: 1 },
};

/** Rank of the implicit conversion from `from` to `to`, or undefined if there is none. */
export function conversionRank(types: GlslTypes, from: TypeId, to: TypeId): number | undefined {
  if (from === to) return 0;
  const f = types.get(from);
  const t = types.get(to);
  if (f.kind !== t.kind) {
    const fs = types.isScalar(from);
    const ts = types.isScalar(to);
    if (!(fs && ts)) return undefined;
  } else if (f.kind === 'vector' && t.kind === 'vector') {
    if (f.count !== t.count) return undefined;
  } else if (f.kind === 'matrix' && t.kind === 'matrix') {
    const a = types.matrixShape(from);
    const b = types.matrixShape(to);
    if (a.columns !== b.columns || a.rows !== b.rows) return undefined;
  } else if (!types.isScalar(from)) {
    return undefined;
  }
  const fs = types.name(types.elementScalar(from));
  const ts = types.name(types.elementScalar(to));
  if (fs === ts) return 0;
  return SCALAR_CONVERSIONS[fs]?.[ts];
}

export function canConvertImplicitly(types: GlslTypes, from: TypeId, to: TypeId): boolean {
  return conversionRank(types, from, to) !== undefined;
}

/**
 * The common type two operands of a binary arithmetic operator convert to (GLSL 4.60 5.9): the
 * component type one side converts to implicitly, shape unchanged. Undefined if neither converts.
 */
export function commonScalar(types: GlslTypes, a: TypeId, b: TypeId): TypeId | undefined {
  const sa = types.elementScalar(a);
  const sb = types.elementScalar(b);
  if (sa === sb) return sa;
  if (conversionRank(types, sa, sb) !== undefined) return sb;
  if (conversionRank(types, sb, sa) !== undefined) return sa;
  return undefined;
}

export interface Candidate<T> {
  params: TypeId[];
  /** Parameters with `out`/`inout` must match exactly: the argument is written back. */
  outParams?: boolean[];
  item: T;
}

export type OverloadResult<T> =
  | { kind: 'ok'; item: T; params: TypeId[] }
  | { kind: 'none' }
  | { kind: 'ambiguous'; items: T[] };

/**
 * GLSL 4.60 section 6.1 overload resolution: an exact match wins; otherwise among candidates whose
 * parameters all accept the arguments by implicit conversion, one must be at least as good for
 * every argument and strictly better for one.
 */
export function resolveOverload<T>(types: GlslTypes, args: TypeId[], candidates: Candidate<T>[]): OverloadResult<T> {
  const viable: { c: Candidate<T>; ranks: number[] }[] = [];
  for (const c of candidates) {
    if (c.params.length !== args.length) continue;
    const ranks: number[] = [];
    let ok = true;
    for (let i = 0; i < args.length; i++) {
      const r = c.outParams?.[i] ? (args[i] === c.params[i] ? 0 : undefined) : conversionRank(types, args[i]!, c.params[i]!);
      if (r === undefined) {
        ok = false;
        break;
      }
      ranks.push(r);
    }
    if (ok) {
      if (ranks.every((r) => r === 0)) return { kind: 'ok', item: c.item, params: c.params };
      viable.push({ c, ranks });
    }
  }
  if (viable.length === 0) return { kind: 'none' };
  if (viable.length === 1) return { kind: 'ok', item: viable[0]!.c.item, params: viable[0]!.c.params };
  const better = (x: number[], y: number[]): boolean => x.every((r, i) => r <= y[i]!) && x.some((r, i) => r < y[i]!);
  const best = viable.filter((v) => viable.every((w) => w === v || better(v.ranks, w.ranks)));
  if (best.length === 1) return { kind: 'ok', item: best[0]!.c.item, params: best[0]!.c.params };
  return { kind: 'ambiguous', items: viable.map((v) => v.c.item) };
}
