/**
 * examples/utilities/traceray-per-pixel.ts, loaded as a user would: a ThreadUpdate() before every
 * traceRay of every shader, counted per pixel. On `ref` (mirror reflections and shadow rays traced
 * from closest-hit) the calls must add up to the simulator's own ray count, split between raygen
 * and closest-hit, and the heatmap must be the launch's size with the busiest pixel white.
 */
import test from 'ava';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { analyse, compileWorkload, instrument, simulate } from '../../src/api/pipeline.js';
import { loadUtilities } from '../../src/utilities/load-utility.js';

const FILE = join(import.meta.dirname, '..', '..', 'examples', 'utilities', 'traceray-per-pixel.ts');

test('traceRay calls per pixel on ref add up to the simulator\'s rays; heatmap of the launch size', async (t) => {
  t.timeout(300_000);
  const [u] = await loadUtilities(FILE);
  const w = await compileWorkload('ref');
  const i = instrument(w, u!);
  const shadersWithProbes = new Set(i.metadata.sites.filter((s) => s.kind === 'traceRayCall').map((s) => i.metadata.shaders[s.shader]!.stage));
  t.true(shadersWithProbes.has('raygen'));
  t.true(shadersWithProbes.has('closestHit'));
  const run = await simulate(i, { width: 24, height: 16 });
  const a = analyse(run).utilities['traceray-per-pixel']!;
  const data = a.data as { calls: number[]; perShader: Record<string, number> };
  t.is(data.calls.length, 24 * 16);
  const total = data.calls.reduce((s, c) => s + c, 0);
  t.is(total, run.rt.rays);
  t.is(Object.values(data.perShader).reduce((s, c) => s + c, 0), total);
  t.true(Object.keys(data.perShader).some((s) => s.endsWith('.rchit')), JSON.stringify(data.perShader));
  // Every pixel traces its primary ray.
  t.true(data.calls.every((c) => c >= 1));
  const hist = a.tables![0]!.rows;
  t.is(hist.reduce((s, r) => s + (r[1] as number), 0), 24 * 16);
  const png = PNG.sync.read(Buffer.from(a.images![0]!.png));
  t.deepEqual([png.width, png.height], [24, 16]);
  const busiest = data.calls.indexOf(Math.max(...data.calls));
  t.deepEqual([...png.data.subarray(busiest * 4, busiest * 4 + 3)], [255, 255, 255]);
});
