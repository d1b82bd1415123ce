/**
 * The five built-in utilities are Utility objects of the shape user utilities have: their
 * analyses return the same report material (checked by the same checker user analyses go
 * through) besides their typed results.
 */
import test from 'ava';
import { analyse, compileWorkload, instrument, simulate } from '../../src/api/pipeline.js';
import { INSTRUMENTATION_MODES } from '../../src/primitives/buffer-layout.js';
import { BUILTIN_UTILITIES } from '../../src/utilities/builtin.js';
import { checkUtilityAnalysis } from '../../src/utilities/check-analysis.js';

test('every built-in utility places, analyses and returns summary, tables/charts in the user shape', async (t) => {
  t.deepEqual(Object.keys(BUILTIN_UTILITIES), [...INSTRUMENTATION_MODES]);
  const w = await compileWorkload('ref');
  const run = await simulate(instrument(w, Object.values(BUILTIN_UTILITIES)), { width: 32, height: 8 });
  const a = analyse(run);
  t.deepEqual(Object.keys(a.utilities).sort(), [...INSTRUMENTATION_MODES].sort());
  for (const [name, u] of Object.entries(BUILTIN_UTILITIES)) {
    t.is(u.name, name);
    t.is(typeof u.description, 'string');
    const x = a.utilities[name]!;
    t.notThrows(() => checkUtilityAnalysis(name, x), name);
    t.true((x.summary ?? []).length > 0, name);
    t.true((x.charts ?? []).length > 0, name);
    t.truthy(x.results, name);
  }
  for (const k of ['simt', 'hotspots', 'opcodes', 'divergence', 'compaction', 'paths', 'lifetimes', 'its'] as const) t.truthy(a.results[k], k);
  t.truthy(a.heatmap);
});
