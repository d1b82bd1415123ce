/**
 * State shared by IR generation of one translation unit: the module being built, the GLSL type
 * view, layout cache, scopes, the constant pool, lazily created built-in variables and the
 * collected diagnostics.
 *
 * Invariants: constants are pooled (one Constant per type + value); a built-in variable gets one
 * Global the first time it is referenced; diagnostics carry the path of the original file.
 */
import type { Loc, ValueId } from '../../../ir/inst.js';
import type { Constant, Global, Module, Stage } from '../../../ir/module.js';
import { freshId } from '../../../ir/module.js';
import type { TypeId } from '../../../ir/types.js';
import type { Diagnostic } from '../diagnostics.js';
import type { ConstValue } from '../sema/const-eval.js';
import { convertScalar } from '../sema/const-eval.js';
import { GlslTypes } from '../sema/glsl-types.js';
import { newLayoutCache, type LayoutCache } from '../sema/layout.js';
import { Scope } from '../sema/scope.js';
import { featureEnabled, missingExtensionMessage, type Feature } from '../sema/extensions.js';
import type { FunctionBuilder } from './function-builder.js';

/** A typed SSA value produced by an expression. `constValue` is set when it folded to a constant. */
export interface Val {
  id: ValueId;
  type: TypeId;
  constValue?: ConstValue;
}

/** Thrown to abandon the current expression/statement after a diagnostic was reported. */
export class SemanticError extends Error {
  constructor() {
    super('semantic error (already reported)');
  }
}

export class IrGenContext {
  readonly types: GlslTypes;
  readonly layouts: LayoutCache = newLayoutCache();
  readonly scope = new Scope();
  readonly diagnostics: Diagnostic[] = [];
  private readonly constPool = new Map<string, ValueId>();
  readonly builtinGlobals = new Map<string, Global>();
  /** The function being generated. */
  fb: FunctionBuilder | undefined;
  /** Names whose declaration failed: later uses are not reported again as undeclared. */
  readonly poisoned = new Set<string>();
  /** Extensions the shader enabled (any behaviour but `disable`). */
  enabledExtensions: ReadonlySet<string> = new Set();
  /** Compute local size from `layout(local_size_x = ...) in;` (gl_WorkGroupSize). */
  localSize: [number, number, number] | undefined;
  /** Values of deep expressions' subtrees generated ahead (deep-expressions.ts), by node. */
  readonly hoisted = new Map<import('../ast.js').Expr, Val>();
  /** How many `genExpr` calls are active: 0 means the next one is an outermost expression. */
  exprDepth = 0;
  /** Return type of the function being generated. */
  returnType: TypeId | undefined;
  /** Private globals whose initializer must run at the start of main (non-constant initializers). */
  readonly globalInits: { global: Global; init: import('../ast.js').Expr; type: TypeId }[] = [];

  constructor(readonly m: Module, readonly stage: Stage) {
    this.types = new GlslTypes(m.types);
  }

  private readonly typeNames = new Map<string, TypeId>();
  /** Built-in overload candidates with resolved parameter types, per function name (built once per module). */
  readonly builtinCandidates = new Map<string, unknown[]>();

  /** A built-in type by GLSL name (built-in tables spell types by name). */
  typeByName(name: string): TypeId {
    let t = this.typeNames.get(name);
    if (t === undefined) {
      t = this.types.resolveName(name);
      if (t === undefined) throw new Error(`internal: unknown built-in type name '${name}'`);
      this.typeNames.set(name, t);
    }
    return t;
  }

  get fnb(): FunctionBuilder {
    if (!this.fb) throw new Error('no function being generated');
    return this.fb;
  }

  /** Records an error at `loc`; generation continues. */
  error(loc: Loc, message: string): void {
    const file = this.m.sources[loc.file]?.path ?? '<unknown>';
    this.diagnostics.push({ severity: 'error', file, line: loc.line, column: loc.column, message });
  }

  /** Records an error and abandons the current expression. */
  fail(loc: Loc, message: string): never {
    this.error(loc, message);
    throw new SemanticError();
  }

  /** Reports (without abandoning the expression) a feature used without its #extension. */
  requireFeature(feature: Feature, loc: Loc, what: string): void {
    if (!featureEnabled(this.enabledExtensions, feature)) this.error(loc, missingExtensionMessage(feature, what));
  }

  warn(loc: Loc, message: string): void {
    const file = this.m.sources[loc.file]?.path ?? '<unknown>';
    this.diagnostics.push({ severity: 'warning', file, line: loc.line, column: loc.column, message });
  }

  /** Pooled scalar constant. */
  constant(type: TypeId, value: number | bigint | boolean): ValueId {
    const v = convertScalar(this.types, value, type);
    const key = `${type}:${typeof v === 'bigint' ? v.toString() + 'n' : Object.is(v, -0) ? '-0' : String(v)}`;
    const hit = this.constPool.get(key);
    if (hit !== undefined) return hit;
    const id = freshId<ValueId>(this.m);
    this.m.constants.push({ id, type, value: v });
    this.constPool.set(key, id);
    return id;
  }

  /** Pooled composite constant. */
  compositeConstant(type: TypeId, parts: ValueId[]): ValueId {
    const key = `${type}:[${parts.join(',')}]`;
    const hit = this.constPool.get(key);
    if (hit !== undefined) return hit;
    const id = freshId<ValueId>(this.m);
    this.m.constants.push({ id, type, value: null, parts });
    this.constPool.set(key, id);
    return id;
  }

  /** The module constant for a folded value. */
  materialize(c: ConstValue): ValueId {
    if (c.scalar !== undefined) return this.constant(c.type, c.scalar);
    return this.compositeConstant(c.type, (c.parts ?? []).map((p) => this.materialize(p)));
  }

  constVal(c: ConstValue): Val {
    return { id: this.materialize(c), type: c.type, constValue: c };
  }

  intConst(v: number): Val {
    return { id: this.constant(this.types.int, v), type: this.types.int, constValue: { type: this.types.int, scalar: v } };
  }

  uintConst(v: number): Val {
    return { id: this.constant(this.types.uint, v), type: this.types.uint, constValue: { type: this.types.uint, scalar: v } };
  }

  /** A specialization constant (never pooled: each has its own id). */
  specConstant(type: TypeId, value: number | bigint | boolean, specId: number, name: string): ValueId {
    const id = freshId<ValueId>(this.m);
    const c: Constant = { id, type, value: convertScalar(this.types, value, type), specId, name };
    this.m.constants.push(c);
    return id;
  }

  addGlobal(g: Omit<Global, 'id'>): Global {
    const global = { id: freshId<ValueId>(this.m), ...g } as Global;
    this.m.globals.push(global);
    return global;
  }

  /** Emits an instruction in the current function. */
  emit(...args: Parameters<FunctionBuilder['emit']>): ValueId {
    return this.fnb.emit(...args);
  }
}
