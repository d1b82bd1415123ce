import test from 'ava';
import { imageChannelMeans, imageToPng } from '../../src/sim/host/image-png.js';
import { readTexel } from '../../src/sim/functional/images.js';
import { runWorkload } from '../../src/driver/run-workload.js';
import { ManifestError } from '../../src/sim/workload/manifest.js';

test('tri renders the triangle over the miss gradient, deterministically', async (t) => {
  const a = await runWorkload('tri', { width: 32, height: 32 });
  const b = await runWorkload('tri', { width: 32, height: 32 });
  t.truthy(a.image);
  t.deepEqual(imageToPng(a.image!), imageToPng(b.image!), 'same inputs, same image');
  t.is(a.counters.threadInsts, b.counters.threadInsts);
  t.is(a.rt.rays, 32 * 32);
  t.true(a.rt.hits > 0 && a.rt.misses > 0, 'some pixels see the triangle, some the background');
  // Centre pixel is on the triangle (barycentric colours sum to 1), a corner is background.
  const px = new Float64Array(4);
  readTexel(a.image!, 0, 16, 16, 0, 0, px);
  t.true(Math.abs(px[0]! + px[1]! + px[2]! - 1) < 0.03, `centre ${[...px]}`);
  readTexel(a.image!, 0, 0, 0, 0, 0, px);
  t.true(px[2]! > 0.5, 'the miss gradient is bluish');
  t.true(imageChannelMeans(a.image!)[3]! === 1);
});

test('SIMT efficiency is 1 on a launch with no divergence and below 1 once rays diverge', async (t) => {
  const r = await runWorkload('tri', { width: 32, height: 32 });
  const rgen = r.counters.functions.find((f) => f.name.startsWith('rgen.'));
  t.truthy(rgen);
  t.is(rgen!.threadInsts, 32 * rgen!.warpInsts);
  t.true(r.counters.activeLanes < 32 * r.counters.warpInsts);
});

test('an unknown workload is a ManifestError that lists the built-ins', async (t) => {
  const e = await t.throwsAsync(runWorkload('no-such-workload'));
  t.true(e instanceof ManifestError);
  t.regex(e!.message, /built-in workloads: .*tri/);
});

test('function call coalescing raises SIMT efficiency on rtv6 and renders the same image (Vulkan-Sim IV-A)', async (t) => {
  const base = await runWorkload('rtv6', { width: 32, height: 32 });
  const fcc = await runWorkload('rtv6', { width: 32, height: 32, fcc: true });
  t.deepEqual(imageToPng(fcc.image!), imageToPng(base.image!), 'the closest accepted hit does not depend on call order');
  const eff = (r: typeof base) => r.counters.activeLanes / (32 * r.counters.warpInsts);
  t.true(eff(fcc) > eff(base), `FCC ${eff(fcc)} vs baseline ${eff(base)}`);
  t.is(fcc.rt.rays, base.rt.rays);
});
