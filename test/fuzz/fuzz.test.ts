/**
 * 300 cases of the front-end fuzzer (fuzz/): seeded mutants of every workload shader and of the
 * LumiBench calibration shaders, compiled in-process. No case may end in an internal error or a
 * diagnostic without file:line:col. `npm run fuzz -- --count 10000 --seed N` runs the long version.
 */
import test from 'ava';
import { existsSync } from 'node:fs';
import { compileGlsl } from '../../src/frontend/glsl/compile.js';
import { CALIBRATION_SHADERS, runCase, seedShaders } from '../../fuzz/fuzz-cases.js';
import { mutate, MUTATION_KINDS } from '../../fuzz/mutate.js';

const shaders = seedShaders();

test('mutants are reproducible from their seed and every mutation kind occurs', (t) => {
  const text = shaders[0]!.text;
  t.deepEqual(mutate(text, 42), mutate(text, 42));
  t.not(mutate(text, 42).text, mutate(text, 43).text);
  const seen = new Set<string>();
  for (let s = 1; s <= 300; s++) for (const k of mutate(text, s).edits) seen.add(k);
  t.deepEqual([...seen].sort(), [...MUTATION_KINDS].sort());
});

test('the seed shaders include the calibration shaders when shared/ is present, and all compile unmutated', (t) => {
  if (!existsSync(CALIBRATION_SHADERS)) t.log(`skipping the calibration shaders: ${CALIBRATION_SHADERS} is missing`);
  else t.true(shaders.some((s) => s.path.startsWith(CALIBRATION_SHADERS)));
  t.true(shaders.length >= 40);
  const failing = shaders.filter((s) => compileGlsl(s.path, s.text, { includeDirs: s.includeDirs, defines: s.defines }).module === undefined);
  t.deepEqual(failing.map((s) => s.path), []);
});

test('300 seeded mutants: no internal error, every diagnostic located', (t) => {
  const counts = { accepted: 0, located: 0, internal: 0, unlocated: 0 };
  const failures: string[] = [];
  for (let seed = 1; seed <= 300; seed++) {
    const r = runCase(shaders, seed);
    counts[r.verdict]++;
    if (r.verdict === 'internal' || r.verdict === 'unlocated') failures.push(`seed ${seed} (${r.shader}; ${r.edits.join(', ')}): ${r.detail}`);
  }
  t.log(`accepted ${counts.accepted}, located diagnostics ${counts.located}`);
  t.deepEqual(failures, []);
  // The mutants are not all trivially rejected nor all harmless.
  t.true(counts.accepted > 10 && counts.located > 100, JSON.stringify(counts));
});
