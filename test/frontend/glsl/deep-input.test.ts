/**
 * Machine-generated and hostile shader input (issue 14): long left-associative chains compile
 * whatever their length; nesting past vvision's limit is a located error naming the limit, never a
 * stack overflow; binary input is rejected at its first control character. In-process, through
 * `vvision compile`, and a deep raygen end to end through `vvision run`.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import { MAX_NESTING_DEPTH } from '../../../src/frontend/glsl/parse.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MAIN = join(ROOT, 'src', 'cli', 'main.ts');

function rgen(body: string): string {
  return `#version 460\n#extension GL_EXT_ray_tracing : require\nlayout(location = 0) rayPayloadEXT vec4 p;\nvoid main() {\n${body}\n}\n`;
}
const sum = (n: number) => Array.from({ length: n }, () => '1.0').join(' + ');
const nestedIfs = (n: number) =>
  `float x = 0.0;\n${Array.from({ length: n }, (_, i) => `if (x < ${i + 1}.0) {\n`).join('')}x += 1.0;\n${'}\n'.repeat(n)}p = vec4(x);`;

test('a 20,000-term sum compiles, as a value and as a constant', (t) => {
  for (const body of [`float x = ${sum(20000)};\np = vec4(x);`, `const float c = ${sum(20000)};\np = vec4(c);`]) {
    const r = compileGlsl('sum.rgen', rgen(body));
    t.deepEqual(r.diagnostics, []);
    t.truthy(r.module);
  }
});

test('nesting up to the limit compiles: 100 nested ifs, 120 nested parentheses', (t) => {
  t.deepEqual(compileGlsl('ifs.rgen', rgen(nestedIfs(100))).diagnostics, []);
  t.deepEqual(compileGlsl('par.rgen', rgen(`float x = ${'('.repeat(120)}1.0${')'.repeat(120)};\np = vec4(x);`)).diagnostics, []);
});

test('1,000 nested ifs and 3,000 nested parentheses: a located error naming the limit, no internal error', (t) => {
  const ifs = compileGlsl('deep.rgen', rgen(nestedIfs(1000))).diagnostics;
  t.is(ifs.length, 1);
  // Line 5 opens the first if; each if adds one line and 2 brackets ('{' and the condition's '(').
  t.like(ifs[0], { file: 'deep.rgen', message: `'(' nests deeper than ${MAX_NESTING_DEPTH} levels of (, [ and {: vvision's nesting limit` });
  t.is(ifs[0]!.line, 5 + MAX_NESTING_DEPTH);
  const par = compileGlsl('par.rgen', rgen(`float x = ${'('.repeat(3000)}1.0${')'.repeat(3000)};`)).diagnostics;
  t.like(par[0], { file: 'par.rgen', line: 5, column: 10 + MAX_NESTING_DEPTH, message: `'(' nests deeper than ${MAX_NESTING_DEPTH} levels of (, [ and {: vvision's nesting limit` });
});

test('a 2,000-branch else-if chain and a 2,000-deep ?: chain end in a located error, never an internal one', (t) => {
  const elif = `float x = 0.0;\nif (x < 0.0) x = 1.0;\n${Array.from({ length: 2000 }, (_, i) => `else if (x < ${i}.0) x = ${i}.0;\n`).join('')}p = vec4(x);`;
  const tern = `float x = 0.0;\nx = ${Array.from({ length: 2000 }, (_, i) => `x < ${i}.0 ? ${i}.0 : `).join('')}0.0;\np = vec4(x);`;
  for (const body of [elif, tern]) {
    const d = compileGlsl('chain.rgen', rgen(body)).diagnostics;
    t.true(d.length >= 1);
    for (const x of d) {
      t.false(/internal/.test(x.message), x.message);
      t.true(x.line >= 5 && x.column >= 1);
    }
  }
});

test('binary input is rejected at its first control character, with file:line:col', (t) => {
  const r = compileGlsl('raygen.rgen', '#version 460\nvoid main() {\n  int x = 1;\u0001\n}\n');
  t.deepEqual(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`), [
    'raygen.rgen:3:13: not a text file: unexpected character 0x01 (a control character) at offset 39',
  ]);
  // 2 MB of noise: one diagnostic, quickly (no lexing of the rest).
  const noise = Buffer.alloc(2_000_000);
  let s = 7;
  for (let i = 0; i < noise.length; i++) noise[i] = (s = (s * 1103515245 + 12345) & 0x7fffffff) >> 16;
  const t0 = performance.now();
  const big = compileGlsl('raygen.rgen', noise.toString('utf8'));
  t.true(performance.now() - t0 < 1000);
  t.is(big.diagnostics.length, 1);
  t.regex(big.diagnostics[0]!.message, /^not a text file: unexpected character 0x[0-9a-f]{2}/);
});

test('a block member of image type is a located error (found by the fuzzer), not an internal one', (t) => {
  const d = compileGlsl('blk.rgen', rgen('').replace('void main', 'layout(set = 0, binding = 2) uniform U { image2D img; };\nvoid main')).diagnostics;
  t.deepEqual(d.map((x) => `${x.line}:${x.column}: ${x.message}`), ["4:50: 'img': member of block cannot be or contain a sampler, image or acceleration structure type"]);
});

test('CLI: vvision compile takes the 20,000-term sum and rejects 1,000 nested ifs at file:line:col with exit 2', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vv-deep-'));
  writeFileSync(join(dir, 'sum.rgen'), rgen(`float x = ${sum(20000)};\np = vec4(x);`));
  writeFileSync(join(dir, 'deep.rgen'), rgen(nestedIfs(1000)));
  const ok = spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'compile', join(dir, 'sum.rgen')], { encoding: 'utf8' });
  t.is(ok.status, 0, ok.stderr);
  const bad = spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'compile', join(dir, 'deep.rgen')], { encoding: 'utf8' });
  t.is(bad.status, 2);
  t.is(bad.stderr.trim(), `${join(dir, 'deep.rgen')}:${5 + MAX_NESTING_DEPTH}:4: error: '(' nests deeper than ${MAX_NESTING_DEPTH} levels of (, [ and {: vvision's nesting limit`);
});

test('vvision run: a raygen with a 20,000-term sum and 100 nested ifs simulates and writes its image', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vv-deep-run-'));
  cpSync(join(ROOT, 'workloads', 'tri'), dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'workload.json'), 'utf8')) as { includeDirs: string[] };
  manifest.includeDirs = [join(ROOT, 'workloads', 'common')];
  writeFileSync(join(dir, 'workload.json'), JSON.stringify(manifest));
  const original = readFileSync(join(dir, 'raygen.rgen'), 'utf8');
  const deep = `  float k = ${sum(20000)};\n  float x = 0.0;\n${Array.from({ length: 100 }, (_, i) => `  if (k > ${i}.0) {\n`).join('')}  x = 1.0;\n${'  }\n'.repeat(100)}`;
  writeFileSync(join(dir, 'raygen.rgen'), original.replace('hitValue = vec3(0.0);', `${deep}  hitValue = vec3(0.0);`).replace('vec4(hitValue, 1.0)', 'vec4(hitValue * x, k / 20000.0)'));
  const out = join(dir, 'out');
  const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'run', join(dir, 'workload.json'), '--width', '32', '--height', '2', '--out', out], { encoding: 'utf8' });
  t.is(r.status, 0, r.stderr);
  t.true(existsSync(join(out, 'image.png')));
});
