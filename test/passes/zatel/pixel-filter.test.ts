/**
 * Zatel's pixel filter pass: traced pixels render exactly as in the unfiltered run, skipped ones
 * are never written, and skipped threads cost only the filter's few instructions.
 */
import test from 'ava';
import { runWorkload } from '../../../src/driver/run-workload.js';
import { pixelMaskWords, PIXEL_FILTER_BINDING, PIXEL_FILTER_SET } from '../../../src/passes/zatel/pixel-filter.js';
import { simulateWorkload } from '../../../src/driver/simulate-workload.js';

const size = { width: 32, height: 8, spp: 1 };

function texels(img: { levels: { data: ArrayLike<number> }[] } | undefined): number[] {
  return Array.from(img!.levels[0]!.data);
}

test('traced pixels match the full run bit for bit; skipped pixels keep the cleared value', async (t) => {
  const full = await runWorkload('ao', size);
  const traced = [...Array(size.width * size.height).keys()].filter((i) => (i * 7) % 3 === 0);
  const filtered = await runWorkload('ao', { ...size, pixelMask: pixelMaskWords(traced, size.width * size.height) });
  const a = texels(full.image);
  const b = texels(filtered.image);
  const perPixel = a.length / (size.width * size.height);
  const keep = new Set(traced);
  let same = 0;
  let untouched = 0;
  for (let p = 0; p < size.width * size.height; p++) {
    const pa = a.slice(p * perPixel, (p + 1) * perPixel);
    const pb = b.slice(p * perPixel, (p + 1) * perPixel);
    if (keep.has(p)) {
      t.deepEqual(pb, pa, `pixel ${p}`);
      same++;
    } else if (pb.every((v) => v === 0)) untouched++;
  }
  t.is(same, traced.length);
  t.is(untouched, size.width * size.height - traced.length, 'no skipped pixel is written');
  t.true(filtered.rt.rays < full.rt.rays, `rays ${filtered.rt.rays} vs ${full.rt.rays}`);
});

test('an empty mask runs only the filter: a handful of instructions per thread, no rays', async (t) => {
  const r = await runWorkload('ao', { ...size, pixelMask: pixelMaskWords([], size.width * size.height) });
  t.is(r.rt.rays, 0);
  t.true(r.counters.threadInsts / (size.width * size.height) <= 24, `${r.counters.threadInsts} thread instructions`);
});

test('the filter works on the timing model too (fewer cycles, same traced pixels)', async (t) => {
  const opts = { ...size, config: 'mobile', overrides: ['gpgpu_n_clusters=1'] };
  const full = await simulateWorkload('ao', opts);
  const half = await simulateWorkload('ao', { ...opts, pixelMask: pixelMaskWords([...Array(128).keys()], 256) });
  t.true(half.stats.values.gpu_sim_cycle! < full.stats.values.gpu_sim_cycle!);
  t.deepEqual(texels(half.prepared.host.output).slice(0, 128 * 4), texels(full.prepared.host.output).slice(0, 128 * 4));
});

test('mask words: bit i for thread i; out-of-range ids are rejected', (t) => {
  t.deepEqual(Array.from(pixelMaskWords([0, 33, 63], 64)), [1, 0x80000002]);
  t.throws(() => pixelMaskWords([64], 64), { instanceOf: RangeError });
  t.is(PIXEL_FILTER_SET, 7);
  t.is(PIXEL_FILTER_BINDING, 1);
});

test('pixel cost counters: per-thread instructions sum to the run total and do not change the image', async (t) => {
  const plain = await runWorkload('pt', size);
  const counted = await runWorkload('pt', { ...size, pixelCost: true });
  t.deepEqual(texels(counted.image), texels(plain.image));
  const cost = counted.pixelCost!;
  t.is(cost.length, size.width * size.height);
  const sum = cost.reduce((a, b) => a + b, 0);
  // The shaders' own instructions: the pipeline lowering's (traversal loop, dispatch) are not counted.
  t.true(sum <= plain.counters.threadInsts && sum > 0.85 * plain.counters.threadInsts, `${sum} of ${plain.counters.threadInsts}`);
  t.true(Math.max(...cost) > Math.min(...cost), 'path lengths differ per pixel');
});
