/**
 * Shared helpers of the GLSL compile tests: compile a snippet, demand it verifies, and query the
 * resulting IR by op. Snippets get the `#version 460` + ray tracing extension header unless they
 * bring their own.
 */
import { compileGlsl, type CompileResult } from '../../../../src/frontend/glsl/compile.js';
import { formatDiagnostic } from '../../../../src/frontend/glsl/diagnostics.js';
import type { Inst, InstOf, Op } from '../../../../src/ir/inst.js';
import type { Function, Module } from '../../../../src/ir/module.js';
import { verifyModule } from '../../../../src/ir/verify.js';

export const HEADER = '#version 460\n#extension GL_EXT_ray_tracing : require\n';

export function withHeader(src: string): string {
  return src.startsWith('#version') ? src : HEADER + src;
}

export function compileSnippet(src: string, ext = 'rgen'): CompileResult {
  return compileGlsl(`snippet.${ext}`, withHeader(src));
}

/** Compiles and returns the module; throws with the diagnostics / verifier problems otherwise. */
export function compileOk(src: string, ext = 'rgen'): Module {
  const r = compileSnippet(src, ext);
  if (!r.module) throw new Error(`expected success, got:\n${r.diagnostics.map(formatDiagnostic).join('\n')}`);
  const problems = verifyModule(r.module);
  if (problems.length) throw new Error(`verifier:\n${problems.join('\n')}`);
  return r.module;
}

/** Formatted error diagnostics of a snippet that must fail. */
export function compileErrors(src: string, ext = 'rgen'): string[] {
  const r = compileSnippet(src, ext);
  if (r.module) throw new Error('expected compile errors, but the snippet compiled');
  return r.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
}

export function fn(m: Module, name = 'main'): Function {
  const f = m.functions.find((x) => x.name === name);
  if (!f) throw new Error(`no function ${name}`);
  return f;
}

export function insts(f: Function): Inst[] {
  return f.blocks.flatMap((b) => b.insts);
}

export function instsOf<O extends Op>(f: Function, op: O): InstOf<O>[] {
  return insts(f).filter((i): i is InstOf<O> => i.op === op);
}

export function constantValue(m: Module, id: number): unknown {
  return m.constants.find((c) => c.id === id)?.value;
}
