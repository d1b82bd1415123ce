// Configuration knobs typed from their declarations (params.ts): the generated interface is
// current, and the library's simulate / sweep take knobs as typed values.
import test from 'ava';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KNOB_TYPES_FILE, knobTypesText } from '../../../src/sim/config/make-knob-types.js';
import { compileWorkload, knobOverrides, simulate, sweep, type ConfigKnobs } from '../../../src/index.js';

test('config-knobs.ts is what make-knob-types.ts generates from params.ts', (t) => {
  t.is(readFileSync(KNOB_TYPES_FILE, 'utf8'), knobTypesText(), 'regenerate: npx tsx src/sim/config/make-knob-types.ts');
  t.regex(knobTypesText(), /gpgpu_rt_max_warps\?: number;/);
  t.regex(knobTypesText(), /gpgpu_scheduler\?: "gto" \| "lrr";/);
  t.regex(knobTypesText(), /"gpgpu_cache:dl1"\?: string;/);
});

test('knobs become the key=value overrides config files use', (t) => {
  const knobs: ConfigKnobs = { gpgpu_rt_max_warps: 4, gpgpu_scheduler: 'lrr', gpgpu_perfect_mem: true };
  t.deepEqual(knobOverrides(knobs), ['gpgpu_rt_max_warps=4', 'gpgpu_scheduler=lrr', 'gpgpu_perfect_mem=1']);
});

test('simulate takes typed knobs, floatModel and a timeline; sweep takes a typed grid', async (t) => {
  const w = await compileWorkload('tri');
  const a = await simulate(w, { width: 8, height: 8, config: 'mobile', knobs: { gpgpu_rt_max_warps: 1 }, floatModel: 'gpu' });
  const b = await simulate(w, { width: 8, height: 8, config: 'mobile', knobs: { gpgpu_rt_max_warps: 4 }, timeline: {} });
  t.true((a.timing!.values.gpu_sim_cycle ?? 0) > 0);
  t.truthy(b.timeline);
  t.true(b.timeline!.summary().events > 0);
  const s = await sweep('tri', { width: 8, height: 8, config: 'mobile', vary: { gpgpu_rt_max_warps: [1, 4] }, jobDir: mkdtempSync(join(tmpdir(), 'vv-jobs-')) });
  t.deepEqual(s.rows.map((r) => r.point.values), [['1'], ['4']]);
  t.true(s.rows.every((r) => (r.values.gpu_sim_cycle ?? 0) > 0));
});
