/**
 * Test harness: parses IR text, compiles it with the functional core and runs the first entry
 * point over host buffers given as u32/f32 word arrays.
 */
import { parseModuleText } from '../../../src/ir/text-parser.js';
import { compileProgram, type Program } from '../../../src/sim/functional/program.js';
import { runFunctional, type LaunchOptions } from '../../../src/sim/functional/launch.js';
import type { Resources } from '../../../src/sim/functional/resources.js';
import type { Counters } from '../../../src/sim/functional/counters.js';
import type { FunctionId } from '../../../src/ir/inst.js';

export function compileText(text: string): Program {
  return compileProgram(parseModuleText(text));
}

export function entryOf(p: Program): FunctionId {
  const e = p.module.entryPoints[0];
  if (!e) throw new Error('module has no entry point');
  return e.function;
}

export function words(n: number): Uint8Array {
  return new Uint8Array(n * 4);
}

export function u32s(b: Uint8Array): number[] {
  return Array.from(new Uint32Array(b.buffer, b.byteOffset, b.byteLength >> 2));
}

export function i32s(b: Uint8Array): number[] {
  return Array.from(new Int32Array(b.buffer, b.byteOffset, b.byteLength >> 2));
}

export function f32s(b: Uint8Array): number[] {
  return Array.from(new Float32Array(b.buffer, b.byteOffset, b.byteLength >> 2));
}

export function fromU32(xs: number[]): Uint8Array {
  return new Uint8Array(Uint32Array.from(xs).buffer);
}

export function fromF32(xs: number[]): Uint8Array {
  return new Uint8Array(Float32Array.from(xs).buffer);
}

export function run(
  text: string,
  resources: Resources,
  opts: Partial<LaunchOptions> & { size: [number, number, number] },
): { program: Program; counters: Counters } {
  const program = compileText(text);
  const counters = runFunctional(program, resources, { entry: entryOf(program), ...opts });
  return { program, counters };
}

/** Executions of the block named `name` (by `<function>/<block>`). */
export function blockExec(c: Counters, name: string): number {
  const i = c.blockNames.indexOf(name);
  if (i < 0) throw new Error(`no block ${name}; have ${c.blockNames.join(', ')}`);
  return c.blockExecutions[i]!;
}

export function blockHist(c: Counters, name: string): Record<number, number> {
  const i = c.blockNames.indexOf(name);
  if (i < 0) throw new Error(`no block ${name}`);
  const out: Record<number, number> = {};
  c.blockHistogram[i]!.forEach((n, lanes) => {
    if (n) out[lanes] = n;
  });
  return out;
}

import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import type { Stage } from '../../../src/ir/module.js';

/** Compiles GLSL with the front end; throws with the diagnostics when it does not compile. */
export function compileGlslProgram(src: string, path = 'test.comp', stage?: Stage): Program {
  const r = compileGlsl(path, src, stage ? { stage } : {});
  if (!r.module) throw new Error(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`).join('\n'));
  return compileProgram(r.module);
}

export function runGlsl(
  src: string,
  resources: Resources,
  opts: Partial<LaunchOptions> & { size: [number, number, number] },
  path = 'test.comp',
): { program: Program; counters: Counters } {
  const program = compileGlslProgram(src, path);
  const counters = runFunctional(program, resources, { entry: entryOf(program), ...opts });
  return { program, counters };
}
