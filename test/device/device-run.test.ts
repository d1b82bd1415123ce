import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createDefaultContainer, write as writeKtx2 } from 'ktx-parse';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeDeviceBundle } from '../../src/device/device-bundle.js';
import { calibrationDir } from '../../src/sim/workload/load-manifest.js';
import { launchOnDevice } from '../../src/device/device-run.js';
import { deviceUnavailable } from './device-available.js';
import { BUILTIN_UTILITIES } from '../../src/utilities/builtin.js';
import { prepareRun, runFrames, runWorkload } from '../../src/driver/run-workload.js';
import { instrumentWorkload } from '../../src/driver/instrument-workload.js';
import { ENTRY_THREAD_WORK_ID } from '../../src/primitives/buffer-layout.js';
import type { Dump } from '../../src/analytics/index.js';
import type { InstrumentationMetadata } from '../../src/primitives/buffer-layout.js';

/** Why the device tests cannot run here, or undefined when a ray tracing device is present. */
const why = deviceUnavailable();
const deviceTest = why === undefined ? test : test.skip;
if (why !== undefined) {
  test('device backend (skipped)', (t) => {
    t.log(`skipped: ${why}`);
    t.pass();
  });
}

function threadKeys(d: Dump, meta: InstrumentationMetadata): Map<string, number> {
  const s = new Map<string, number>();
  for (let k = 0; k < d.entryCount; k++) {
    if (meta.sites[d.entrySite[k]!]!.primitive !== 'ThreadUpdate') continue;
    const key = `${d.entrySite[k]}:${d.words[d.entryOffsets[k]! + ENTRY_THREAD_WORK_ID]}`;
    s.set(key, (s.get(key) ?? 0) + 1);
  }
  return s;
}

deviceTest('tri on the device: the frame equals the simulator\'s byte for byte', async (t) => {
  const dev = await launchOnDevice('tri', undefined, { repeat: 1 });
  const sim = await runWorkload('tri');
  const a = sim.image!.levels[0]!.data;
  const b = dev.image!.levels[0]!.data;
  t.deepEqual(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  t.true(dev.info.medianTraceMs >= 0);
});

deviceTest('its-shapes trace on the device: every thread ran the same blocks as on the simulator', async (t) => {
  const dev = await launchOnDevice('its-shapes', BUILTIN_UTILITIES.trace, { repeat: 1 });
  const sim = (await instrumentWorkload('its-shapes', 'trace')).runs[0]!;
  t.deepEqual([...threadKeys(dev.dump!, dev.metadata!)].sort(), [...threadKeys(sim.dump, sim.metadata)].sort());
  t.is(dev.metadata!.warpSize, dev.info.ranSubgroupSize);
});

function bytesOf(d: ArrayBufferView): Uint8Array {
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}

/** Bytes that differ and the largest difference. */
function imageDifference(a: ArrayBufferView, b: ArrayBufferView): { differ: number; max: number } {
  const x = bytesOf(a);
  const y = bytesOf(b);
  let differ = 0;
  let max = 0;
  for (let i = 0; i < x.length; i++) {
    if (x[i] === y[i]) continue;
    differ++;
    max = Math.max(max, Math.abs(x[i]! - y[i]!));
  }
  return { differ, max };
}

// Bundles need no device: every feature of the built-in workloads is expressed.
test('bundles: sampled texture arrays, buffer_reference relocations, address-only memory', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-bundle-'));
  try {
    const lines = async (w: string) => {
      writeDeviceBundle(await prepareRun(w), join(dir, w));
      return readFileSync(join(dir, w, 'bundle.txt'), 'utf8').split('\n');
    };
    const alpha = await lines('alpha');
    t.is(alpha.filter((l) => l.startsWith('texture 0 9 ')).length, 3); // checker, fence, leaf
    t.true(alpha.some((l) => /^texture 0 9 2 3 /.test(l)));
    const bindless = await lines('bindless');
    // The push constants' table address and the table's four buffer addresses (two models x vertices, indices).
    t.is(bindless.filter((l) => l.startsWith('reloc push.bin 0 ')).length, 1);
    t.is(bindless.filter((l) => l.startsWith('memory ')).length, 5);
    t.is(bindless.filter((l) => l.startsWith('reloc memory')).length, 4);
    const cornell = await lines('cornell');
    t.is(cornell.filter((l) => l.startsWith('reloc ')).length, 4); // one ObjDesc: vertex, index, material, material-index addresses
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

deviceTest('models on the device (buffer_reference addresses, a sampled JPEG texture): the frame is the simulator\'s within one step', async (t) => {
  const dev = await launchOnDevice('models', undefined, { repeat: 1 });
  const sim = await runWorkload('models');
  const d = imageDifference(dev.image!.levels[0]!.data, sim.image!.levels[0]!.data);
  t.log(`${d.differ} bytes differ, at most ${d.max}`);
  t.true(d.max <= 1);
});

const lumibench = existsSync(join(calibrationDir(), 'lumibench-wknd', 'host-data'));
deviceTest('LumiBench WKND, 3 frames on the device: every frame accumulates like the simulator\'s', async (t) => {
  if (!lumibench) {
    t.log('skipped: the LumiBench calibration data is not here');
    t.pass();
    return;
  }
  const opts = { frames: 3, width: 16, height: 16 };
  const dev = await launchOnDevice('lumibench-wknd', undefined, { ...opts, repeat: 1 });
  const sim = await runWorkload('lumibench-wknd', { ...opts, frameImages: true });
  t.is(dev.frames?.length, 3);
  t.is(dev.info.traceMs.length, 3);
  for (const f of dev.frames!) {
    const d = imageDifference(f.image!.levels[0]!.data, sim.frames[f.frame]!.image!.levels[0]!.data);
    t.log(`frame ${f.frame}: ${d.differ} of ${16 * 16 * 4} bytes differ`);
    t.true(d.differ <= 16 * 16 * 4 * 0.02, `frame ${f.frame}: ${d.differ} bytes differ`);
  }
  // The last frame is what image holds; frames differ from each other (samples accumulate).
  t.deepEqual(bytesOf(dev.image!.levels[0]!.data), bytesOf(dev.frames![2]!.image!.levels[0]!.data));
  t.notDeepEqual(bytesOf(dev.frames![0]!.image!.levels[0]!.data), bytesOf(dev.frames![2]!.image!.levels[0]!.data));
});

// The multi-frame fixture: per-frame uniform members and push constants, an image cleared each frame,
// an accumulation image kept, a storage buffer uploaded again each frame.
deviceTest('multi-frame fixture on the device: per-frame host writes, clears and push constants as the simulator does them', async (t) => {
  const fixture = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'multi-frame', 'workload.json');
  const dir = mkdtempSync(join(tmpdir(), 'vvision-frames-'));
  try {
    const dev = await launchOnDevice(fixture, undefined, { repeat: 1, keepBundle: dir });
    const p = await prepareRun(fixture);
    const frames = runFrames(p, { frameImages: true });
    t.is(dev.frames?.length, 3);
    for (const f of dev.frames!) t.deepEqual(bytesOf(f.image!.levels[0]!.data), bytesOf(frames[f.frame]!.image!.levels[0]!.data));
    // The accumulation image after 3 frames: frame 0+1+2, total 2+4+6, tag 10+20+20, push constant 1+2+3.
    const acc = new Float32Array(new Uint8Array(readFileSync(join(dir, 'out', 'image-0-1.bin'))).buffer);
    const sim = p.host.resources.images!.find((i) => i.binding === 1)!.image.levels[0]!.data as Float32Array;
    t.deepEqual([...acc.subarray(0, 4)], [3, 12, 50, 6]);
    t.deepEqual(acc, sim);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

deviceTest('SDK: runOnDevice runs the pipeline and its instrumented variant; analyse reads the device dump', async (t) => {
  const { analyse, runOnDevice } = await import('../../src/index.js');
  const plain = await runOnDevice('tri', { width: 32, height: 8, repeat: 1 });
  t.is(plain.workload, 'tri');
  t.deepEqual(plain.dumps, []);
  t.true(plain.device.medianTraceMs >= 0 && plain.image !== undefined);
  const run = await runOnDevice('tri', { width: 32, height: 8, repeat: 1, instrument: ['simt'] });
  t.is(run.dumps.length, 1);
  const simt = analyse(run.dumps[0]!).results.simt!;
  t.true(simt.overall.efficiency > 0 && simt.overall.efficiency <= 1);
});

deviceTest('SDK: runOnDevice runs every frame of a multi-frame workload and returns each frame as the simulator renders it', async (t) => {
  const { runOnDevice } = await import('../../src/index.js');
  const fixture = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'multi-frame', 'workload.json');
  const run = await runOnDevice(fixture, { repeat: 1 });
  const frames = runFrames(await prepareRun(fixture), { frameImages: true });
  t.deepEqual(run.frames?.map((f) => f.frame), [0, 1, 2]);
  for (const f of run.frames!) {
    t.true(f.traceMs >= 0);
    t.deepEqual(bytesOf(f.image!.levels[0]!.data), bytesOf(frames[f.frame]!.image!.levels[0]!.data));
  }
});

deviceTest('alpha --mode simt on the device (issue 21: hung an H100): runs, one ballot entry per warp per block, the frame unchanged', async (t) => {
  const plain = await launchOnDevice('alpha', undefined, { repeat: 1, timeoutS: 120 });
  const dev = await launchOnDevice('alpha', BUILTIN_UTILITIES.simt, { repeat: 1, timeoutS: 120 });
  t.true(dev.dump!.entryCount > 0);
  const a = plain.image!.levels[0]!.data;
  const b = dev.image!.levels[0]!.data;
  t.deepEqual(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  // Every ballot is a subset of the warp's lanes.
  const lanes = dev.info.ranSubgroupSize;
  for (let k = 0; k < dev.dump!.entryCount; k++) {
    const mask = dev.dump!.words[dev.dump!.entryOffsets[k]! + 2]!;
    t.true(mask !== 0 && (lanes >= 32 || mask >>> lanes === 0));
  }
});

const MIP_LOD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'mip-lod', 'workload.json');

test('bundles: a texture with mipmaps "generate" carries every level, level 0 first', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-bundle-'));
  try {
    const p = await prepareRun(MIP_LOD);
    writeDeviceBundle(p, join(dir, 'b'));
    const lines = readFileSync(join(dir, 'b', 'bundle.txt'), 'utf8').split('\n').filter((l) => l.startsWith('texture '));
    t.is(lines.length, 2);
    for (const l of lines) {
      const f = l.split(' ');
      t.is(f[12], '7'); // 64x64 .. 1x1
      const bytes = readFileSync(join(dir, 'b', f[11]!)).byteLength;
      t.is(bytes, 4 * [64, 32, 16, 8, 4, 2, 1].reduce((n, s) => n + s * s, 0));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

deviceTest('mip chains on the device: textureLod at every LOD and texelFetch of every level read the simulator\'s texels', async (t) => {
  const dev = await launchOnDevice(MIP_LOD, undefined, { repeat: 1 });
  const sim = await runWorkload(MIP_LOD);
  const a = bytesOf(dev.image!.levels[0]!.data);
  const b = bytesOf(sim.image!.levels[0]!.data);
  // Rows 0-31 sample at LOD x/8: at an exact tie (x % 8 == 4, LOD n + 0.5) implementations may pick
  // either level (lavapipe picks level n+1 at 1.5 and 3.5 on some rows); everywhere else the level
  // is the one VK_SAMPLER_MIPMAP_MODE_NEAREST gives, so the texels are equal.
  const differ: string[] = [];
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 64; x++) {
      if (y < 32 && x % 8 === 4) continue;
      const k = 4 * (y * 64 + x);
      if ([0, 1, 2, 3].some((c) => a[k + c] !== b[k + c])) differ.push(`(${x},${y})`);
    }
  }
  t.deepEqual(differ, []);
});

deviceTest('--frame-range on the device: frames before the range run unmeasured; the measured frames are the simulator\'s', async (t) => {
  if (!lumibench) {
    t.log('skipped: the LumiBench calibration data is not here');
    t.pass();
    return;
  }
  const opts = { frames: 3, firstFrame: 1, width: 16, height: 16 };
  const dev = await launchOnDevice('lumibench-wknd', BUILTIN_UTILITIES.trace, { ...opts, repeat: 1 });
  const sim = (await instrumentWorkload('lumibench-wknd', 'trace', opts)).runs[0]!;
  t.deepEqual(dev.frames!.map((f) => f.frame), [1, 2]);
  t.deepEqual(sim.frames!.map((f) => f.frame), [1, 2]);
  t.is(dev.firstFrame, 1);
  t.is(dev.info.traceMs.length, 2);
  // The measured frames' dumps hold only their own launches (frame 0's entries were emptied).
  for (const k of [0, 1]) {
    const a = threadKeys(dev.frames![k]!.dump!, dev.metadata!);
    const b = threadKeys(sim.frames![k]!.dump, sim.metadata);
    let same = 0;
    for (const [key, n] of b) if (a.get(key) === n) same++;
    t.log(`frame ${k + 1}: ${same} of ${b.size} (site, thread) counts equal`);
    t.true(same >= 0.9 * b.size);
    t.true(Math.abs(dev.frames![k]!.dump!.entryCount - sim.frames![k]!.dump.entryCount) <= 0.05 * sim.frames![k]!.dump.entryCount);
  }
  // Frame 2's image accumulates frames 0..2 on both sides.
  const d = imageDifference(dev.image!.levels[0]!.data, sim.prepared.host.output!.levels[0]!.data);
  t.true(d.differ <= 16 * 16 * 4 * 0.02, `${d.differ} bytes differ`);
  // One measured frame: no per-frame outputs, as the simulator writes none.
  const one = await launchOnDevice('lumibench-wknd', undefined, { frames: 2, firstFrame: 1, width: 16, height: 16, repeat: 1 });
  t.is(one.frames, undefined);
  t.is(one.info.traceMs.length, 1);
  await t.throwsAsync(() => launchOnDevice('lumibench-wknd', undefined, { frames: 2, firstFrame: 2, width: 16, height: 16, repeat: 1 }), { instanceOf: RangeError });
});

deviceTest('the host enables what the workloads\' SPIR-V declares (cull mask, shader clock) and says which stages have subgroup operations', async (t) => {
  for (const w of ['alpha', 'pt']) {
    const dev = await launchOnDevice(w, undefined, { repeat: 1, validate: true, width: 16, height: 16 });
    t.is(typeof dev.info.subgroupInRayTracingStages, 'boolean');
    if (!dev.info.validation) continue; // no VK_LAYER_KHRONOS_validation here
    // alpha's shadow any-hit reads gl_CullMaskEXT (VK_KHR_ray_tracing_maintenance1); pt reads clockARB (VK_KHR_shader_clock).
    t.is(dev.info.validationErrors, 0, w);
  }
});

/** The mip-lod fixture with both textures a 64x64 KTX2 whose 7 stored levels differ (`mipmaps: "file"`). */
function ktx2MipWorkload(dir: string): string {
  const c = createDefaultContainer();
  c.vkFormat = 37 as typeof c.vkFormat;
  c.pixelWidth = 64;
  c.pixelHeight = 64;
  c.levelCount = 7;
  c.levels = [0, 1, 2, 3, 4, 5, 6].map((k) => {
    const s = 64 >> k;
    const data = new Uint8Array(new ArrayBuffer(s * s * 4));
    for (let i = 0; i < s * s; i++) data.set([30 * k + (i % 7), 255 - 30 * k, (i * 13) & 255, 255], 4 * i);
    return { levelData: data, uncompressedByteLength: data.byteLength };
  });
  const file = join(dir, 'levels.ktx2');
  writeFileSync(file, writeKtx2(c));
  const fixture = dirname(MIP_LOD);
  const m = JSON.parse(readFileSync(MIP_LOD, 'utf8')) as Record<string, unknown> & { descriptors: Record<string, unknown>[] };
  for (const key of ['includeDirs'] as const) m[key] = (m[key] as string[]).map((p) => join(fixture, p));
  m.shaders = { raygen: [join(fixture, 'raygen.rgen')], closestHit: [join(fixture, 'closesthit.rchit')], miss: [join(fixture, 'miss.rmiss')] };
  m.hitGroups = [{ type: 'triangles', closestHit: join(fixture, 'closesthit.rchit') }];
  m.miss = [join(fixture, 'miss.rmiss')];
  const tex = m.descriptors.find((d) => d.kind === 'sampledImages')!;
  tex.files = [file, file];
  tex.mipmaps = 'file';
  const manifest = join(dir, 'workload.json');
  writeFileSync(manifest, JSON.stringify(m));
  return manifest;
}

deviceTest('a KTX2 file\'s own mip levels (mipmaps "file") on the device: the simulator\'s texels at every level', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-ktx2-'));
  try {
    const w = ktx2MipWorkload(dir);
    const dev = await launchOnDevice(w, undefined, { repeat: 1 });
    const sim = await runWorkload(w);
    const a = bytesOf(dev.image!.levels[0]!.data);
    const b = bytesOf(sim.image!.levels[0]!.data);
    // texelFetch rows: row 32 + k reads level k, whose red is 30k + (i % 7).
    for (let k = 0; k < 7; k++) t.true(Math.abs(b[4 * ((32 + k) * 64)]! - 30 * k) < 7, `level ${k}`);
    const differ: string[] = [];
    for (let y = 0; y < 64; y++) {
      for (let x = 0; x < 64; x++) {
        if (y < 32 && x % 8 === 4) continue; // LOD ties (see the mip-lod test)
        const k = 4 * (y * 64 + x);
        if ([0, 1, 2, 3].some((c) => a[k + c] !== b[k + c])) differ.push(`(${x},${y})`);
      }
    }
    t.deepEqual(differ, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('mipmaps "file" on a PNG says the file has no levels and names "generate"', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-ktx2-'));
  try {
    const w = ktx2MipWorkload(dir);
    const m = JSON.parse(readFileSync(w, 'utf8')) as { descriptors: Record<string, unknown>[] };
    m.descriptors.find((d) => d.kind === 'sampledImages')!.files = [join(dirname(MIP_LOD), '../../../../workloads/alpha/textures/checker.png')];
    writeFileSync(w, JSON.stringify(m));
    const e = await t.throwsAsync(() => prepareRun(w));
    t.regex(e!.message, /mipmaps "file": .*checker\.png stores no mip levels beyond level 0 .*use "generate"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

deviceTest('an any-hit that ignores inside nested loops, under simt on the device: runs, the frame unchanged', async (t) => {
  const w = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'anyhit-loops', 'workload.json');
  const plain = await launchOnDevice(w, undefined, { repeat: 1, timeoutS: 120 });
  const dev = await launchOnDevice(w, BUILTIN_UTILITIES.simt, { repeat: 1, timeoutS: 120 });
  const sim = await runWorkload('alpha');
  t.true(dev.dump!.entryCount > 0);
  t.deepEqual(bytesOf(dev.image!.levels[0]!.data), bytesOf(plain.image!.levels[0]!.data));
  // The loops ignore exactly what alpha's any-hit ignores: the simulator renders alpha's frame.
  t.deepEqual(bytesOf((await runWorkload(w)).image!.levels[0]!.data), bytesOf(sim.image!.levels[0]!.data));
});
