/**
 * Front-end compile benchmark: `compileGlsl` (preprocess + parse + semantic analysis + IR
 * generation) of a ~1,000-line closest-hit shader with includes: the path-tracer compile fixture,
 * its two includes, and a generated material library (structs, loops, switches, swizzle writes,
 * out parameters, built-ins). Prints the warm median and the split between parsing and IR
 * generation. Target (issue 2): under 200 ms warm.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileGlsl, compileUnit } from '../src/frontend/glsl/compile.js';
import { parseGlsl } from '../src/frontend/glsl/parse.js';
import { verifyModule } from '../src/ir/verify.js';

const DIR = 'test/frontend/glsl/compile-fixtures';

/** Deterministic material library: `count` shading functions in the style of real path tracers. */
function materialLibrary(count: number): string {
  const out = ['#ifndef BENCH_MATERIALS_GLSL', '#define BENCH_MATERIALS_GLSL', 'struct Lobe { vec3 weight; float pdf; int kind; };', ''];
  for (let i = 0; i < count; i++) {
    out.push(
      `Lobe evalLobe${i}(vec3 n, vec3 wo, vec3 wi, inout uint seed, out float cosTheta)`,
      '{',
      '  Lobe lobe = Lobe(vec3(0.0), 0.0, 0);',
      '  vec3 h = normalize(wo + wi);',
      '  cosTheta = clamp(dot(n, wi), 0.0, 1.0);',
      `  float alpha = ${(0.05 + (i % 9) * 0.1).toFixed(2)} + 0.1 * nextFloat(seed);`,
      '  float a2 = alpha * alpha;',
      '  float nh = max(dot(n, h), 1e-4);',
      '  float d = a2 / (3.14159265 * pow(nh * nh * (a2 - 1.0) + 1.0, 2.0));',
      `  for (int k = 0; k < ${(i % 3) + 1}; k++)`,
      '  {',
      '    lobe.weight.xy += vec2(d * cosTheta, float(k)) * 0.5;',
      '    lobe.weight.z = max(lobe.weight.z, d);',
      '  }',
      `  switch (${i} % 4)`,
      '  {',
      '    case 0: lobe.kind = 1; lobe.pdf = d * nh / (4.0 * max(dot(wo, h), 1e-4)); break;',
      '    case 1: lobe.kind = 2;',
      '    case 2: lobe.pdf += cosTheta / 3.14159265; break;',
      '    default: lobe.pdf = 1.0;',
      '  }',
      `  return lobe.pdf > 0.0 && cosTheta > 0.0 ? lobe : Lobe(vec3(${i % 2}.0), 1.0, -1);`,
      '}',
      '',
    );
  }
  out.push('#endif', '');
  return out.join('\n');
}

const files = new Map<string, string>();
for (const inc of ['rng.glsl', 'payload.glsl']) files.set(join(DIR, 'include', inc), readFileSync(join(DIR, 'include', inc), 'utf8'));
files.set(join(DIR, 'include', 'materials.glsl'), materialLibrary(34));
const mainPath = join(DIR, 'valid', 'pathtrace.rchit');
const mainText = readFileSync(mainPath, 'utf8').replace('#include "payload.glsl"', '#include "payload.glsl"\n#include "materials.glsl"');
files.set(mainPath, mainText);
const host = { readFile: (p: string) => files.get(p) ?? files.get(join(DIR, 'include', p.split('/').pop()!)) };
const opts = { host, includeDirs: [join(DIR, 'include')] };

const lines = [...files.values()].reduce((n, t) => n + t.split('\n').length, 0);
const check = compileGlsl(mainPath, mainText, opts);
if (!check.module) {
  console.error(check.diagnostics);
  process.exit(1);
}
const problems = verifyModule(check.module);
if (problems.length) {
  console.error(problems.slice(0, 10));
  process.exit(1);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const WARMUP = 5;
const RUNS = 25;
const total: number[] = [];
const cpu: number[] = [];
const parse: number[] = [];
const irgen: number[] = [];
for (let i = 0; i < WARMUP + RUNS; i++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  compileGlsl(mainPath, mainText, opts);
  const t1 = performance.now();
  const c1 = process.cpuUsage(c0);
  if (i >= WARMUP) cpu.push((c1.user + c1.system) / 1000);
  const p = parseGlsl(mainPath, mainText, opts);
  const t2 = performance.now();
  compileUnit(p.unit!, p.sources, 'closestHit');
  const t3 = performance.now();
  if (i >= WARMUP) {
    total.push(t1 - t0);
    parse.push(t2 - t1);
    irgen.push(t3 - t2);
  }
}

const insts = check.module.functions.reduce((n, f) => n + f.blocks.reduce((k, b) => k + b.insts.length, 0), 0);
console.log(`shader: ${lines} lines in ${files.size} files -> ${check.module.functions.length} functions, ${insts} IR instructions`);
console.log(`compileGlsl warm median of ${RUNS}: ${median(total).toFixed(2)} ms wall, ${median(cpu).toFixed(2)} ms CPU (target < 200 ms)`);
console.log(`  (machine load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)}: wall time on a shared machine overstates the cost)`);
console.log(`  parse ${median(parse).toFixed(2)} ms, semantic analysis + IR generation ${median(irgen).toFixed(2)} ms`);
