/**
 * The chunked parse of deeply nested shaders (deep-nesting.ts): it must build exactly the AST a
 * whole parse builds. Checked on every workload, fixture and calibration shader with chunks cut
 * at every bracket (depth 1) and every third one, which exercises the synthetic braces and
 * parentheses and the hole splicing far more than any deep shader does.
 */
import test from 'ava';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chunkDeepTokens, DEEP_MODE_DEPTH, nestingEstimate } from '../../../src/frontend/glsl/deep-nesting.js';
import { fsHost, markUserTypeNames, parseGlsl } from '../../../src/frontend/glsl/parse.js';
import { preprocess } from '../../../src/frontend/glsl/preprocessor.js';
import { REPO_ROOT } from '../../repo-root.js';
import { STAGE_BY_EXTENSION } from '../../../src/ir/module.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function shaders(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) shaders(p, out);
    else if (STAGE_BY_EXTENSION[name.split('.').pop() ?? ''] !== undefined) out.push(p);
  }
  return out;
}

const files = [
  ...shaders(join(ROOT, 'workloads')),
  ...shaders(join(ROOT, 'test', 'frontend', 'glsl', 'fixtures')),
  ...shaders(join(ROOT, 'test', 'frontend', 'glsl', 'compile-fixtures', 'valid')),
  ...shaders(join(REPO_ROOT, '..', 'shared', 'calibration', 'lumibench-wknd', 'shaders')),
];
const includeDirs = (f: string) => [dirname(f), join(ROOT, 'workloads', 'common')];

test('a chunked parse builds the same AST and diagnostics as a whole parse, for every shader we have', (t) => {
  let parsed = 0;
  for (const f of files) {
    const whole = parseGlsl(f, undefined, { includeDirs: includeDirs(f) });
    if (whole.unit !== undefined) parsed++;
    for (const chunkDepth of [1, 3]) {
      const chunked = parseGlsl(f, undefined, { includeDirs: includeDirs(f), forceChunks: { chunkDepth } });
      t.deepEqual(chunked.diagnostics, whole.diagnostics, `${f}, chunks every ${chunkDepth}`);
      t.deepEqual(chunked.unit, whole.unit, `${f}, chunks every ${chunkDepth}`);
    }
  }
  t.true(parsed >= 40, `only ${parsed} shaders parse`);
});

test('chunking really cuts: synthetic tokens and many chunks at depth 1; shallow shaders are parsed whole', (t) => {
  const f = join(ROOT, 'workloads', 'tri', 'raygen.rgen');
  const pp = preprocess(f, fsHost.readFile(f)!, { includeDirs: includeDirs(f), host: fsHost });
  markUserTypeNames(pp.tokens);
  t.true(nestingEstimate(pp.tokens) <= DEEP_MODE_DEPTH);
  t.is(chunkDeepTokens(pp.tokens), undefined);
  const c = chunkDeepTokens(pp.tokens, { chunkDepth: 1 })!;
  t.true(c.chunks.length > 10);
  t.true(c.tokens.length > pp.tokens.length);
  t.true(c.tokens.every((tok, i) => tok.startOffset === i));
});

test('the nesting estimate counts brackets and statement / expression chains', (t) => {
  const estimate = (src: string) => {
    const pp = preprocess('e.comp', src, { host: fsHost });
    return nestingEstimate(pp.tokens);
  };
  t.is(estimate('void main() { int x = 1; }'), 2); // { and the '='
  t.true(estimate(`void main() { int x; ${'if (x > 0) '.repeat(50)}x = 1; }`) > DEEP_MODE_DEPTH);
  t.true(estimate(`void main() { int x; if (x == 0) x = 1; ${'else if (x == 1) x = 2; '.repeat(50)} }`) > DEEP_MODE_DEPTH);
  t.true(estimate(`void main() { int x = ${'x > 0 ? 1 : '.repeat(50)}0; }`) > DEEP_MODE_DEPTH);
  t.true(estimate(`void main() { int x = ${'('.repeat(50)}1${')'.repeat(50)}; }`) > DEEP_MODE_DEPTH);
  t.true(estimate(`void main() { int x; ${'x = 1; '.repeat(500)} }`) <= DEEP_MODE_DEPTH);
});

test('a syntax error deep inside a chunk is reported where it is', (t) => {
  const src = `#version 460\nlayout(local_size_x = 1) in;\nvoid main() {\nfloat x = 0.0;\n${'if (x < 1.0) {\n'.repeat(100)}x = 1.0 +;\n${'}\n'.repeat(100)}}\n`;
  const r = parseGlsl('err.comp', src);
  t.is(r.unit, undefined);
  // As a whole parse reports it: at the ';', not at the synthetic ')' closing `(1.0 +`.
  t.deepEqual(r.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`), ["105:10: expected an expression but found ';'"]);
});
