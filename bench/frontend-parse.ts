/**
 * Front-end parse benchmark: preprocess + parse + AST of a ~1,000-line closest-hit shader with
 * includes (the path-tracer test fixture plus a generated shading library), warm, after a few
 * iterations. Prints the median and the split between preprocessor, parser and AST builder.
 * The target for a full compile is under 200 ms; parsing should stay well under 100 ms.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { astBuilder } from '../src/frontend/glsl/ast-builder.js';
import { markUserTypeNames, parseGlsl } from '../src/frontend/glsl/parse.js';
import { glslParser } from '../src/frontend/glsl/parser.js';
import { preprocess } from '../src/frontend/glsl/preprocessor.js';

const FIXTURES = 'test/frontend/glsl/fixtures/pathtracer';

/** A deterministic library of BRDF-ish functions using loops, switches, macros and structs. */
function shadingLibrary(functions: number): string {
  const out = ['#ifndef SHADING_GLSL', '#define SHADING_GLSL', '#define LERP(a, b, t) ((a) + ((b) - (a)) * (t))', ''];
  for (let i = 0; i < functions; i++) {
    out.push(
      `vec3 shade${i}(in vec3 n, in vec3 v, in vec3 l, inout uint seed, const Material m)`,
      '{',
      '  float nDotL = max(dot(n, l), 0.0);',
      '  float nDotV = max(dot(n, v), 1e-4);',
      '  vec3 h = normalize(v + l);',
      `  float rough = LERP(0.05, 1.0, m.mat_roughness * ${(i % 7) + 1}.0 / 7.0);`,
      '  vec3 acc = vec3(0.0);',
      `  [[unroll]] for (int k = 0; k < ${(i % 4) + 2}; ++k)`,
      '  {',
      '    vec2 xi = rnd2(seed);',
      '    float a2 = rough * rough;',
      '    float d = a2 / (PI * SQR(SQR(dot(n, h)) * (a2 - 1.0) + 1.0));',
      '    acc += m.mat_albedo * d * nDotL / (4.0 * nDotV) + vec3(xi, 0.0) * 1e-3;',
      '  }',
      `  switch (m.type % ${(i % 3) + 2}u)`,
      '  {',
      '    case 0u: acc *= INV_PI; break;',
      '    case 1u: acc = sqrt(acc);',
      '    default: acc = clamp(acc, vec3(0.0), vec3(16.0)); break;',
      '  }',
      `  return i % 2 == 0 ? acc : acc.zyx;`.replace('i % 2', `${i} % 2`),
      '}',
      '',
    );
  }
  out.push('#endif');
  return out.join('\n');
}

const files = new Map<string, string>();
const read = (p: string): string => readFileSync(p, 'utf8');
files.set(join(FIXTURES, 'include/common.glsl'), read(join(FIXTURES, 'include/common.glsl')));
files.set(join(FIXTURES, 'include/random.glsl'), read(join(FIXTURES, 'include/random.glsl')));
files.set(join(FIXTURES, 'include/shading.glsl'), shadingLibrary(33));
const mainPath = join(FIXTURES, 'closesthit.rchit');
const mainText = read(mainPath).replace('#include "include/common.glsl"', '#include "include/common.glsl"\n#include "include/shading.glsl"');
files.set(mainPath, mainText);
const host = { readFile: (p: string) => files.get(p) };

const lines = [...files.values()].reduce((n, t) => n + t.split('\n').length, 0);
const check = parseGlsl(mainPath, mainText, { host });
if (check.unit === undefined) {
  console.error(check.diagnostics);
  process.exit(1);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const WARMUP = 5;
const RUNS = 30;
const total: number[] = [];
const totalCpu: number[] = [];
const pp: number[] = [];
const parse: number[] = [];
const ast: number[] = [];
const ppCpu: number[] = [];
const parseCpu: number[] = [];
const astCpu: number[] = [];
let tokenCount = 0;
const cpuMs = (c: NodeJS.CpuUsage): number => (c.user + c.system) / 1000;
for (let i = 0; i < WARMUP + RUNS; i++) {
  const t0 = performance.now();
  const p0 = process.cpuUsage();
  const r = preprocess(mainPath, mainText, { host });
  markUserTypeNames(r.tokens);
  const p1 = process.cpuUsage();
  const t1 = performance.now();
  const cst = glslParser.parseTranslationUnit(r.tokens);
  const p2 = process.cpuUsage();
  const t2 = performance.now();
  astBuilder.build(cst, r.tokens, r.version, r.extensions);
  const p3 = process.cpuUsage();
  const t3 = performance.now();
  const c0 = process.cpuUsage();
  parseGlsl(mainPath, mainText, { host });
  const c1 = process.cpuUsage(c0);
  const t4 = performance.now();
  if (i >= WARMUP) {
    pp.push(t1 - t0);
    parse.push(t2 - t1);
    ast.push(t3 - t2);
    ppCpu.push(cpuMs(process.cpuUsage(p0)) - cpuMs(process.cpuUsage(p1)));
    parseCpu.push(cpuMs(process.cpuUsage(p1)) - cpuMs(process.cpuUsage(p2)));
    astCpu.push(cpuMs(process.cpuUsage(p2)) - cpuMs(process.cpuUsage(p3)));
    total.push(t4 - t3);
    totalCpu.push((c1.user + c1.system) / 1000);
  }
  tokenCount = r.tokens.length;
}

console.log(`shader: ${lines} lines in ${files.size} files, ${tokenCount} tokens after preprocessing`);
console.log(`parseGlsl (preprocess + parse + AST), warm median of ${RUNS}: ${median(total).toFixed(2)} ms`);
// On a shared machine wall time includes waiting for a core; CPU time (this process, GC threads included) does not.
console.log(`  same, process CPU time: ${median(totalCpu).toFixed(2)} ms (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`);
console.log(`  preprocess ${median(pp).toFixed(2)} ms, parse ${median(parse).toFixed(2)} ms, AST ${median(ast).toFixed(2)} ms`);
console.log(`  CPU time: preprocess ${median(ppCpu).toFixed(2)} ms, parse ${median(parseCpu).toFixed(2)} ms, AST ${median(astCpu).toFixed(2)} ms`);
console.log(`  throughput: ${((lines / median(total)) * 1000).toFixed(0)} lines/s`);
