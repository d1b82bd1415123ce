/**
 * IR generation for a whole translation unit: global declarations in source order, then function
 * bodies, then the entry point.
 *
 * Invariants kept: `main` is `void main()` and becomes the module's one entry point; function
 * parameters declared `in` are copied into function-storage variables (so they can be assigned),
 * `out`/`inout` parameters are pointers; non-constant global initializers run at the start of main;
 * every function ends each block with one terminator (falling off a non-void function returns an
 * undefined value, with a warning, as glslang does).
 */
import { caughtErrorMessage } from '../diagnostics.js';
import type { TranslationUnit } from '../ast.js';
import type { ValueId } from '../../../ir/inst.js';
import type { Param } from '../../../ir/module.js';
import { freshId } from '../../../ir/module.js';
import { declareStructType, constInt } from '../sema/type-resolution.js';
import type { FunctionSymbol } from '../sema/scope.js';
import { SemanticError, type IrGenContext } from './context.js';
import { declareFunction, genBlockDecl, genGlobalVarDecl } from './declarations.js';
import { genInitValue } from './expressions.js';
import { FunctionBuilder } from './function-builder.js';
import { describeRecursion, recursiveCalls } from '../../../ir/call-cycles.js';
import { describeOversizedVariable, oversizedVariables } from '../../../ir/variable-size-limit.js';
import { genStmt } from './statements.js';
import { coerce } from './value-conversion.js';

export function genTranslationUnit(cx: IrGenContext, unit: TranslationUnit): void {
  cx.m.extensions = unit.extensions.map((e) => e.name);
  cx.enabledExtensions = new Set(unit.extensions.filter((e) => e.behavior !== 'disable').map((e) => e.name));
  const deferred: FunctionSymbol[] = [];
  let localSize: [number, number, number] | undefined;
  for (const d of unit.decls) {
    try {
      switch (d.kind) {
        case 'struct':
          declareStructType(cx, d);
          break;
        case 'var':
          genGlobalVarDecl(cx, d);
          break;
        case 'block':
          genBlockDecl(cx, d);
          break;
        case 'function': {
          const f = declareFunction(cx, d);
          if (!f || !d.body || f.definition !== d) break;
          // Bodies are generated where they are defined, so they see exactly the globals and
          // functions declared above them (GLSL's rule). main goes last: it also runs the
          // initializers of globals declared after it.
          if (f.name === 'main' && f.params.length === 0) {
            if (cx.types.isVoid(f.returnType)) deferred.push(f);
            else cx.error(d.loc, `the entry point 'main' must return void, not '${cx.types.name(f.returnType)}'`);
          } else {
            genFunctionBody(cx, f);
          }
          break;
        }
        case 'qualifierDecl': {
          const sizes = ['local_size_x', 'local_size_y', 'local_size_z'].map((n) => {
            const l = d.qualifiers.layout.find((x) => x.name === n);
            return l?.value ? constInt(cx, l.value, n) ?? 1 : undefined;
          });
          if (sizes.some((s) => s !== undefined)) localSize = [sizes[0] ?? 1, sizes[1] ?? 1, sizes[2] ?? 1];
          cx.localSize = localSize;
          break;
        }
      }
    } catch (e) {
      if (!(e instanceof SemanticError)) cx.error(d.loc, caughtErrorMessage(e));
    }
  }
  for (const f of deferred) genFunctionBody(cx, f);
  const mains = cx.scope.functions.get('main') ?? [];
  const main = mains.find((f) => f.params.length === 0 && f.definition);
  if (!main) {
    cx.error({ file: 0, line: 1, column: 1 }, "no 'void main()' function is defined");
    return;
  }
  if (!cx.types.isVoid(main.returnType)) return;
  const ep = { stage: cx.stage, function: main.id, name: 'main' } as const;
  cx.m.entryPoints.push(cx.stage === 'compute' ? { ...ep, localSize: localSize ?? [1, 1, 1] } : { ...ep });
  // A call to a function that was only declared (prototype without body) cannot be resolved.
  const definedIds = new Set(cx.m.functions.map((f) => f.id));
  for (const fn of cx.m.functions) {
    for (const b of fn.blocks) {
      for (const i of b.insts) {
        if (i.op === 'call' && !definedIds.has(i.callee)) {
          const sym = [...cx.scope.functions.values()].flat().find((s) => s.id === i.callee);
          cx.error(i.loc, `function '${sym?.name ?? '?'}' is declared but never defined`);
        }
      }
    }
  }
  // GLSL forbids static recursion, reached from main or not (glslang: "Recursion detected").
  for (const r of recursiveCalls(cx.m)) {
    cx.error(r.call.loc, `recursion detected: ${describeRecursion(r)} (GLSL forbids static recursion, direct or through other functions)`);
  }
  for (const v of oversizedVariables(cx.m)) cx.error(v.loc, describeOversizedVariable(cx.m, v));
}

function genFunctionBody(cx: IrGenContext, f: FunctionSymbol): void {
  const d = f.definition!;
  const types = cx.types;
  const params: Param[] = f.params.map((p) => ({
    id: freshId<ValueId>(cx.m),
    type: p.qualifier === 'in' ? p.type : types.pointer('function', p.type),
    ...(p.name ? { name: p.name } : {}),
  }));
  const fb = new FunctionBuilder(cx.m, f.id, f.name, f.returnType, params, d.loc);
  cx.fb = fb;
  cx.returnType = f.returnType;
  cx.scope.push();
  try {
    f.params.forEach((p, i) => {
      if (!p.name) return;
      const loc = d.params[i]!.loc;
      let sym;
      if (p.qualifier === 'in' && types.isOpaque(p.type)) {
        // Opaque handles (samplers, images, acceleration structures) cannot live in function memory: use the value.
        sym = { kind: 'constant' as const, id: params[i]!.id, type: p.type, loc };
      } else if (p.qualifier === 'in') {
        const ptr = fb.variable(types.pointer('function', p.type), loc, undefined, p.name);
        fb.emit({ op: 'store', ptr, value: params[i]!.id }, types.void, loc);
        sym = { kind: 'variable' as const, ptr, type: p.type, storage: 'function' as const, loc, ...(p.readonly ? { readonly: 'const' as const } : {}) };
      } else {
        sym = { kind: 'variable' as const, ptr: params[i]!.id, type: p.type, storage: 'function' as const, loc };
      }
      if (!cx.scope.declare(p.name, sym)) cx.error(loc, `redefinition of parameter '${p.name}'`);
    });
    if (f.name === 'main' && f.params.length === 0) {
      for (const gi of cx.globalInits) {
        try {
          const v = coerce(cx, genInitValue(cx, gi.init, gi.type), gi.type, gi.init.loc, ` in initializer of '${gi.global.name}'`);
          fb.emit({ op: 'store', ptr: gi.global.id, value: v.id }, types.void, gi.init.loc);
        } catch (e) {
          if (!(e instanceof SemanticError)) throw e;
        }
      }
    }
    for (const s of d.body!.body) genStmt(cx, s);
  } finally {
    cx.scope.pop();
  }
  const endLoc = d.body!.loc;
  let missingReturn = false;
  const fn = fb.finish((b) => {
    if (types.isVoid(f.returnType)) return { op: 'return' };
    // glslang accepts falling off a non-void function (real shaders do it) and returns an undefined
    // value; so do we, with a warning.
    missingReturn = true;
    const undef = freshId<ValueId>(cx.m);
    b.insts.push({ op: 'undef', id: undef, type: f.returnType, loc: b.insts.at(-1)?.loc ?? endLoc });
    return { op: 'return', value: undef };
  }, types.void);
  if (missingReturn) {
    cx.warn(endLoc, `missing return statement: function '${f.name}' does not return a value of type '${types.name(f.returnType)}' on every path (the result is undefined there)`);
  }
  cx.m.functions.push(fn);
  cx.fb = undefined;
  cx.returnType = undefined;
}
