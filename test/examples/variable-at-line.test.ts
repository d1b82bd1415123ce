/**
 * examples/utilities/variable-at-line.ts, loaded as a user would (type-checked and transpiled in
 * process), on the `pt` path tracer: it records the bounce counter `b` before the traceRay of
 * raygen.rgen:95 for every thread, every time. The dump must agree with the shader's loop and
 * with the simulator's own ray count.
 */
import test from 'ava';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { analyse, compileWorkload, instrument, simulate } from '../../src/api/pipeline.js';
import { dumpEntries } from '../../src/analytics/dump-entries.js';
import { loadUtilities } from '../../src/utilities/load-utility.js';

const FILE = join(import.meta.dirname, '..', '..', 'examples', 'utilities', 'variable-at-line.ts');

test('the bounce counter at pt\'s traceRay, per thread: 0, 1, 2... in every sample, one entry per ray', async (t) => {
  t.timeout(300_000);
  const [u] = await loadUtilities(FILE);
  t.is(u!.name, 'variable-at-line');
  const w = await compileWorkload('pt');
  const i = instrument(w, u!);
  const site = i.metadata.sites.find((s) => s.kind === 'variableValue')!;
  t.is(site.loc.line, 95);
  t.deepEqual(site.fields, ['thread_work_id', 'inst_id', 'b']);
  t.is(site.primitive, 'ThreadUpdate');
  const run = await simulate(i, { width: 32, height: 16, spp: 2, bounces: 4 });
  const entries = dumpEntries(run.instrumentation!.dump, i.metadata, (s) => s.kind === 'variableValue');
  // Every traceRay of pt is this one: one entry per ray the simulator traced.
  t.is(entries.length, run.rt.rays);
  const byThread = new Map<number, number[]>();
  for (const e of entries) byThread.set(e.threadWorkId, [...(byThread.get(e.threadWorkId) ?? []), e.values.b!]);
  t.is(byThread.size, 32 * 16);
  for (const [twi, values] of byThread) {
    // Each sample restarts the loop at b = 0; inside a sample b counts up by one per traced bounce.
    t.is(values.filter((v) => v === 0).length, 2, `thread ${twi}: ${values}`);
    values.forEach((v, k) => {
      if (v !== 0 && v !== values[k - 1]! + 1) t.fail(`thread ${twi}: ${values}`);
      if (v > 3) t.fail(`thread ${twi}: b = ${v} but bounces = 4 stops tracing at b = 3`);
    });
  }
  const a = analyse(run).utilities['variable-at-line']!;
  const rows = a.tables![0]!.rows;
  t.is(rows.reduce((s, r) => s + (r[1] as number), 0), entries.length);
  t.is(rows.find((r) => r[0] === 0)![1], 2 * 32 * 16);
  const png = PNG.sync.read(Buffer.from(a.images![0]!.png));
  t.deepEqual([png.width, png.height], [32, 16]);
});
