/**
 * Lexical scopes of a GLSL translation unit: variables, constants, interface block members and
 * struct type names, one frame per compound statement / function / global scope.
 *
 * Invariants: a name is declared at most once per frame (redeclaration is a user error reported
 * by the caller); inner frames shadow outer ones; functions live in their own table keyed by name
 * with every overload (GLSL functions are global and cannot be shadowed by variables in 4.60
 * semantics we need).
 */
import type { FunctionId, Loc, ValueId } from '../../../ir/inst.js';
import type { StorageClass, TypeId } from '../../../ir/types.js';
import type { ConstValue } from './const-eval.js';
import type { FunctionDecl } from '../ast.js';

/** Why a variable cannot be assigned (used verbatim in the diagnostic). */
export type ReadonlyReason = 'const' | 'readonly' | 'built-in' | 'uniform' | 'input';

export type SymbolEntry =
  /** Memory: `ptr` is a pointer value (global, local `variable`, or out-parameter). `type` is the pointee. */
  | {
      kind: 'variable'; ptr: ValueId; type: TypeId; storage: StorageClass; readonly?: ReadonlyReason; writeonly?: boolean; loc: Loc;
      /** Known value of a const kept in memory (array sizes and case labels may still fold it). */
      value?: ConstValue;
      /** A const computed from specialization constants: `value` holds the result for their defaults only. */
      specDerived?: boolean;
    }
  /** A folded constant (`const` with a constant initializer, spec constants). */
  | { kind: 'constant'; id: ValueId; type: TypeId; value?: ConstValue; spec?: boolean; loc: Loc }
  /** A member of an interface block declared without an instance name. */
  | { kind: 'blockMember'; ptr: ValueId; index: number; type: TypeId; blockType: TypeId; storage: StorageClass; readonly?: ReadonlyReason; loc: Loc };

export type ParamQualifier = 'in' | 'out' | 'inout';

export interface FunctionSymbol {
  name: string;
  id: FunctionId;
  returnType: TypeId;
  params: { type: TypeId; qualifier: ParamQualifier; name?: string; readonly: boolean }[];
  /** The definition, once seen (prototypes have none). */
  definition?: FunctionDecl;
  loc: Loc;
}

export class Scope {
  private frames: { values: Map<string, SymbolEntry>; types: Map<string, TypeId> }[] = [{ values: new Map(), types: new Map() }];
  /**
   * Per name, its declarations in the open frames, innermost last: lookups cost the same at any
   * depth (a shader with 5,000 nested blocks must not make every name lookup walk 10,000 frames).
   * Invariant: exactly the entries of `frames`, in frame order.
   */
  private visibleValues = new Map<string, SymbolEntry[]>();
  private visibleTypes = new Map<string, TypeId[]>();
  readonly functions = new Map<string, FunctionSymbol[]>();

  push(): void {
    this.frames.push({ values: new Map(), types: new Map() });
  }
  pop(): void {
    if (this.frames.length <= 1) return;
    const f = this.frames.pop()!;
    for (const name of f.values.keys()) this.visibleValues.get(name)!.pop();
    for (const name of f.types.keys()) this.visibleTypes.get(name)!.pop();
  }
  get isGlobal(): boolean {
    return this.frames.length === 1;
  }
  /** Declares in the innermost frame; false if the name already exists there. */
  declare(name: string, sym: SymbolEntry): boolean {
    const f = this.frames[this.frames.length - 1]!;
    if (f.values.has(name)) return false;
    f.values.set(name, sym);
    const v = this.visibleValues.get(name);
    if (v === undefined) this.visibleValues.set(name, [sym]);
    else v.push(sym);
    return true;
  }
  lookup(name: string): SymbolEntry | undefined {
    const v = this.visibleValues.get(name);
    return v === undefined ? undefined : v[v.length - 1];
  }
  declareType(name: string, type: TypeId): boolean {
    const f = this.frames[this.frames.length - 1]!;
    if (f.types.has(name)) return false;
    f.types.set(name, type);
    const v = this.visibleTypes.get(name);
    if (v === undefined) this.visibleTypes.set(name, [type]);
    else v.push(type);
    return true;
  }
  lookupType(name: string): TypeId | undefined {
    const v = this.visibleTypes.get(name);
    return v === undefined ? undefined : v[v.length - 1];
  }

}
