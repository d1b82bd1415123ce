/**
 * Resolves types as written (`TypeSpec` + declarator array dimensions) to IR types: built-in type
 * names, struct names in scope, inline struct declarations, and array dimensions folded as constant
 * expressions (spec constants contribute their default value).
 *
 * Array dimensions compose as GLSL says: `float[2] a[3]` is an array of 3 `float[2]`, the
 * declarator's dimensions outermost. An unsized dimension becomes a runtime array; callers size it
 * from an initializer when there is one.
 */
import type { Expr, StructDecl, TypeSpec } from '../ast.js';
import type { Loc } from '../../../ir/inst.js';
import { declareStruct, type StructMember, type TypeId } from '../../../ir/types.js';
import { evalConst, type ConstEnv } from './const-eval.js';
import type { GlslTypes } from './glsl-types.js';
import type { Scope } from './scope.js';
import { typeNameFeature, type Feature } from './extensions.js';

export interface TypeResolver {
  types: GlslTypes;
  scope: Scope;
  error(loc: Loc, message: string): void;
  /** Reports use of a feature whose #extension is not enabled (absent: no checks). */
  requireFeature?(feature: Feature, loc: Loc, what: string): void;
}

export function constEnvOf(r: TypeResolver): ConstEnv {
  return {
    types: r.types,
    lookup: (name) => {
      const s = r.scope.lookup(name);
      return s?.kind === 'constant' || s?.kind === 'variable' ? s.value : undefined;
    },
    resolveType: (name) => r.scope.lookupType(name) ?? r.types.resolveName(name),
  };
}

/** A positive integer constant (array size, layout value); reports and returns undefined otherwise. */
export function constInt(r: TypeResolver, e: Expr, what: string): number | undefined {
  const v = evalConst(constEnvOf(r), e);
  if (v === undefined || v.scalar === undefined || typeof v.scalar === 'boolean' || !r.types.isIntKind(v.type)) {
    r.error(e.loc, `${what} must be a constant integer expression`);
    return undefined;
  }
  return Number(v.scalar);
}

export function resolveBaseType(r: TypeResolver, spec: TypeSpec): TypeId | undefined {
  if (spec.struct) return declareStructType(r, spec.struct);
  const t = r.scope.lookupType(spec.name) ?? r.types.resolveName(spec.name);
  if (t === undefined) r.error(spec.loc, `unknown type '${spec.name}'`);
  const feature = typeNameFeature(spec.name);
  if (feature && r.requireFeature) r.requireFeature(feature, spec.loc, spec.name);
  return t;
}

/** Applies array dimensions (outermost first) to `base`. */
export function applyArrayDims(r: TypeResolver, base: TypeId, dims: (Expr | null)[]): TypeId | undefined {
  let t = base;
  for (let i = dims.length - 1; i >= 0; i--) {
    const d = dims[i];
    if (d === null || d === undefined) {
      t = r.types.arrayOf(t, undefined);
      continue;
    }
    const n = constInt(r, d, 'array size');
    if (n === undefined) return undefined;
    if (n <= 0) {
      r.error(d.loc, `array size must be greater than zero (found ${n})`);
      return undefined;
    }
    t = r.types.arrayOf(t, n);
  }
  return t;
}

export function resolveType(r: TypeResolver, spec: TypeSpec, declaratorDims: (Expr | null)[] = []): TypeId | undefined {
  const base = resolveBaseType(r, spec);
  if (base === undefined) return undefined;
  return applyArrayDims(r, base, [...declaratorDims, ...spec.arrayDims]);
}

export function declareStructType(r: TypeResolver, s: StructDecl): TypeId | undefined {
  const members: StructMember[] = [];
  const seen = new Set<string>();
  for (const m of s.members) {
    const t = resolveType(r, m.type, m.arrayDims);
    if (t === undefined) continue;
    if (r.types.isVoid(t)) r.error(m.loc, `struct member '${m.name}' cannot have type void`);
    if (seen.has(m.name)) r.error(m.loc, `duplicate struct member '${m.name}'`);
    seen.add(m.name);
    members.push({ name: m.name, type: t });
  }
  const id = declareStruct(r.types.tt, s.name || 'anon', members);
  if (s.name && !r.scope.declareType(s.name, id)) r.error(s.loc, `redefinition of struct '${s.name}'`);
  return id;
}
