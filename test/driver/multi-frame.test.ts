/**
 * Multi-frame runs (issue 24): per-frame values (${frame}, expressions, perFrame members, per-frame
 * push constants), resources kept / cleared / uploaded between frames, per-frame counters that sum
 * to the totals, and the LumiBench WKND path tracer accumulating N frames of spp samples exactly
 * as the application does.
 */
import test from 'ava';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareRun, runFrames, runWorkload, sharedPreparation } from '../../src/driver/run-workload.js';
import { runFunctional } from '../../src/sim/functional/launch.js';
import { launchOptionsOf } from '../../src/driver/run-workload.js';
import { calibrationDir } from '../../src/sim/workload/load-manifest.js';
import { ManifestError } from '../../src/sim/workload/manifest.js';
import { substitutePlaceholders, placeholderProblem } from '../../src/sim/workload/run-placeholders.js';
import type { PreparedRun } from '../../src/driver/run-workload.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'multi-frame', 'workload.json');

function image(p: PreparedRun, binding: number): Float32Array {
  return p.host.resources.images!.find((i) => i.binding === binding)!.image.levels[0]!.data as Float32Array;
}

test('placeholders: names and arithmetic over the run parameters and the frame', (t) => {
  const v = { width: 8, height: 4, depth: 1, spp: 2, bounces: 3, seed: 9, frame: 4, frames: 6 };
  t.deepEqual(substitutePlaceholders({ a: '${(frame + 1) * spp}', b: ['${frames - frame}', '${width / 3}', '${-seed % 4}'], c: 'text' }, v), {
    a: 10, b: [2, 2, -1], c: 'text',
  });
  t.regex(placeholderProblem('frame +')!, /unexpected end/);
  t.regex(placeholderProblem('fram')!, /unknown name 'fram'/);
  t.is(placeholderProblem('(frame+1)*spp'), undefined);
});

test('frames: values per frame reach the shaders; kept, cleared and uploaded resources behave as declared', async (t) => {
  const p = await prepareRun(FIXTURE, {});
  t.is(p.params.frames, 3);
  const frames = runFrames(p, {});
  t.is(frames.length, 3);
  const acc = image(p, 1);
  // frame 0+1+2, total (f+1)*spp = 2+4+6, tag 10,20,20 (past the list: its last entry), push constant 1+2+3.
  t.deepEqual([...acc.subarray(0, 4)], [3, 12, 50, 6]);
  t.deepEqual([...acc.subarray(acc.length - 4)], [3, 12, 50, 6]);
  // Cleared before each frame: one frame's count.
  t.is(image(p, 2)[3], 1);
  // Uploaded again (7) before each frame, then incremented once.
  const counts = new Uint32Array(p.host.resources.buffers!.find((b) => b.binding === 4)!.data.buffer);
  t.is(counts[0], 8);
  t.is(counts[63], 8);
  for (const f of frames) t.is(f.counters.threads, 64);
  t.is(frames.reduce((n, f) => n + f.rt.rays, 0), 192);
});

test('--frames overrides the manifest; totals are the sum of the frames', async (t) => {
  const r = await runWorkload(FIXTURE, { frames: 2 });
  t.is(r.frames.length, 2);
  t.is(r.counters.threads, 128);
  t.is(r.counters.threadInsts, r.frames[0]!.counters.threadInsts + r.frames[1]!.counters.threadInsts);
  t.is(r.rt.rays, r.frames[0]!.rt.rays + r.frames[1]!.rt.rays);
  const one = await runWorkload(FIXTURE, { frames: 1 });
  t.is(one.frames.length, 1);
  t.is(one.counters.threadInsts, r.frames[0]!.counters.threadInsts);
});

test('a bad per-frame value is reported before any frame runs', async (t) => {
  const { mkdtempSync, readFileSync, writeFileSync, copyFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'vv-mf-'));
  for (const f of ['raygen.rgen', 'miss.rmiss', 'hit.rchit']) copyFileSync(join(dirname(FIXTURE), f), join(dir, f));
  const m = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  m.descriptors[3].perFrame.push({ members: { nope: 1 } });
  m.descriptors[3].members.total = '${frame +}';
  writeFileSync(join(dir, 'workload.json'), JSON.stringify(m));
  const e = await t.throwsAsync(prepareRun(join(dir, 'workload.json'), {}));
  t.true(e instanceof ManifestError);
  t.regex(e!.message, /members\.total: \$\{frame \+\}: unexpected end/);
});

const lumibench = existsSync(join(calibrationDir(), 'lumibench-wknd', 'host-data'));

test('LumiBench WKND: the image after N frames is N x spp samples accumulated, as the application accumulates them', async (t) => {
  if (!lumibench) {
    t.log(`skipped: ${join(calibrationDir(), 'lumibench-wknd')} not found`);
    t.pass();
    return;
  }
  const N = 3;
  const spp = 2;
  const opts = { width: 8, height: 8, spp, bounces: 4, frames: N };
  const shared = await sharedPreparation('lumibench-wknd');
  const run = await prepareRun('lumibench-wknd', opts, undefined, shared);
  const frames = runFrames(run, opts);
  t.is(frames.length, N);
  const acc = image(run, 1);
  // Each frame alone, from a zeroed accumulation image, with that frame's UBO (TotalNumberOfSamples = (f + 1) x spp):
  // its accumulation texels are that frame's spp samples; summed in frame order (f32) they must be the N-frame image.
  const sum = new Float32Array(acc.length);
  for (let f = 0; f < N; f++) {
    const alone = await prepareRun('lumibench-wknd', opts, undefined, shared);
    alone.host.startFrame(f);
    runFunctional(alone.program, alone.host.resources, launchOptionsOf(alone, undefined));
    const own = image(alone, 1);
    for (let i = 0; i < sum.length; i++) if (i % 4 !== 3) sum[i] = Math.fround(sum[i]! + own[i]!);
  }
  const diff = acc.reduce((m, v, i) => (i % 4 === 3 ? m : Math.max(m, Math.abs(v - sum[i]!))), 0);
  t.is(diff, 0, 'accumulation image = sum of the frames\' samples');
  t.true(sum.some((v) => v > 0), 'the frames render something');
  // The output is sqrt(accumulated / (N x spp)), 8-bit.
  const out = run.host.output!.levels[0]!.data as Uint8Array;
  let worst = 0;
  for (let px = 0; px < 64; px++) {
    for (let ch = 0; ch < 3; ch++) {
      const expect = Math.round(Math.min(1, Math.sqrt(sum[px * 4 + ch]! / (N * spp))) * 255);
      worst = Math.max(worst, Math.abs(out[px * 4 + ch]! - expect));
    }
  }
  t.true(worst <= 1, `output = sqrt(acc / ${N * spp}) within one 8-bit step (worst ${worst})`);
  // The UBO of the last frame says N x spp samples in total.
  const ubo = run.host.resources.buffers!.find((b) => b.binding === 3)!;
  const words = new Uint32Array(ubo.data.buffer, ubo.data.byteOffset, 80);
  t.is(words[71], N * spp, 'TotalNumberOfSamples');
  t.is(words[72], spp, 'NumberOfSamples');
});

test('a camera path: perFrame camera fields replace the camera\'s for that frame and the frames after the list', async (t) => {
  const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const tri = join(dirname(FIXTURE), '..', '..', '..', 'workloads', 'tri');
  const m = JSON.parse(readFileSync(join(tri, 'workload.json'), 'utf8'));
  m.includeDirs = [join(tri, '..', 'common')];
  for (const k of ['raygen', 'closestHit', 'miss']) m.shaders[k] = m.shaders[k].map((f: string) => join(tri, f));
  m.hitGroups[0].closestHit = join(tri, m.hitGroups[0].closestHit);
  m.miss = m.miss.map((f: string) => join(tri, f));
  m.launch = { width: 8, height: 8 };
  const dir = mkdtempSync(join(tmpdir(), 'vv-cam-'));
  const write = (name: string, json: unknown) => {
    writeFileSync(join(dir, name), JSON.stringify(json));
    return join(dir, name);
  };
  const cam = m.descriptors[2];
  const path = write('path.json', { ...m, frames: 3, descriptors: [m.descriptors[0], m.descriptors[1], { ...cam, perFrame: [{}, { camera: { lookFrom: [1, 0, 2.5] } }] }] });
  const moved = write('moved.json', { ...m, descriptors: [m.descriptors[0], m.descriptors[1], { ...cam, camera: { ...cam.camera, lookFrom: [1, 0, 2.5] } }] });
  const p = await prepareRun(path, {});
  const q = await prepareRun(moved, {});
  const ubo = (r: PreparedRun) => r.host.resources.buffers!.find((b) => b.binding === 2)!.data.slice();
  p.host.startFrame(0);
  const first = ubo(p);
  p.host.startFrame(1);
  t.notDeepEqual(ubo(p), first);
  t.deepEqual(ubo(p), ubo(q), 'frame 1 sees the moved camera');
  p.host.startFrame(2);
  t.deepEqual(ubo(p), ubo(q), 'frames past the list keep its last entry');
  const frames = runFrames(p, {});
  t.is(frames.length, 3);
});
