/**
 * Seeded mutation fuzzing of the front end (tools/glsl-fuzz.ts, issue 14): 300 cases over every
 * workload shader and the LumiBench shaders; an internal error or a diagnostic without
 * file:line:col fails. `npm run fuzz -- --count 10000 --seed N` is the long run.
 */
import test from 'ava';
import { fuzzCases, fuzzSources, mutate } from '../../../tools/glsl-fuzz.js';
import { seededRandom } from '../../../src/sim/seeded-random.js';

test('mutations are deterministic for a seed and change the text', (t) => {
  const text = 'void main() {\n  int x = 1;\n  x += 2;\n}\n';
  const a = mutate(text, seededRandom(3));
  const b = mutate(text, seededRandom(3));
  t.deepEqual(a, b);
  t.true(Array.from({ length: 20 }, (_, k) => mutate(text, seededRandom(k)).text !== text).some(Boolean));
});

test('300 seeded mutants of every shader: accepted or located diagnostics, never an internal error', (t) => {
  const sources = fuzzSources();
  t.true(sources.length >= 40, `${sources.length} shaders`);
  const counts = { accepted: 0, located: 0, internal: 0, unlocated: 0 };
  for (const c of fuzzCases(sources, 300, 20261124)) {
    counts[c.outcome]++;
    if (c.outcome === 'internal' || c.outcome === 'unlocated') t.fail(`${c.outcome}: ${c.source} [${c.mutation}] ${c.message}`);
  }
  t.log(JSON.stringify(counts));
  t.true(counts.accepted > 0 && counts.located > 0, 'the mutations both keep and break shaders');
});
