/**
 * Every built-in workload on the Vulkan device here (lavapipe in CI, issue 21 item 6): its own
 * pipeline uninstrumented and under `trace`, at 16x16, against the simulator's run of the same
 * bundle: the image (float rounding and texture filtering aside), the (site, thread) counts of the
 * trace dump (which thread ran which block how often) and the raygen invocations. Skips cleanly
 * without a device. docs/device.md has the 64x64 figures (bench/device.ts).
 */
import test from 'ava';
import { launchOnDevice } from '../../src/device/device-run.js';
import { deviceUnavailable } from './device-available.js';
import { instrumentWorkload } from '../../src/driver/instrument-workload.js';
import { runWorkload } from '../../src/driver/run-workload.js';
import type { Dump } from '../../src/analytics/index.js';
import { ENTRY_THREAD_WORK_ID, type InstrumentationMetadata } from '../../src/primitives/buffer-layout.js';
import { listBuiltinWorkloads } from '../../src/sim/workload/load-manifest.js';
import { BUILTIN_UTILITIES } from '../../src/utilities/builtin.js';

const why = deviceUnavailable();
if (why !== undefined) {
  test('every built-in workload on the device (skipped)', (t) => {
    t.log(`skipped: ${why}`);
    t.pass();
  });
}

const SIZE = { width: 16, height: 16 };
const bytes = (d: ArrayBufferView) => new Uint8Array(d.buffer, d.byteOffset, d.byteLength);

function threadCounts(d: Dump, md: InstrumentationMetadata): Map<string, number> {
  const s = new Map<string, number>();
  for (let k = 0; k < d.entryCount; k++) {
    if (md.sites[d.entrySite[k]!]!.primitive !== 'ThreadUpdate') continue;
    const key = `${d.entrySite[k]}:${d.words[d.entryOffsets[k]! + ENTRY_THREAD_WORK_ID]}`;
    s.set(key, (s.get(key) ?? 0) + 1);
  }
  return s;
}

/** ThreadUpdate entries of the raygen's entry block: one per raygen invocation. */
function raygenInvocations(d: Dump, md: InstrumentationMetadata): number {
  const entry = new Set(md.sites.filter((s) => {
    const sh = md.shaders[s.shader]!;
    const fn = sh.cfg.find((f) => f.name === sh.entryFunction) ?? sh.cfg[0];
    return sh.stage === 'raygen' && s.primitive === 'ThreadUpdate' && s.function === sh.entryFunction && fn?.blocks[0]?.id === s.block;
  }).map((s) => s.id));
  let n = 0;
  for (let k = 0; k < d.entryCount; k++) if (entry.has(d.entrySite[k]!)) n++;
  return n;
}

for (const { name } of why === undefined ? listBuiltinWorkloads() : []) {
  test.serial(`${name} on the device at 16x16: image and per-thread trace as on the simulator`, async (t) => {
    const dev = await launchOnDevice(name, undefined, { ...SIZE, repeat: 1 });
    const sim = await runWorkload(name, SIZE);
    const a = bytes(dev.image!.levels[0]!.data);
    const b = bytes(sim.image!.levels[0]!.data);
    let far = 0;
    for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 2) far++;
    t.log(`image: ${far} of ${a.length} bytes differ by more than 2`);
    // Rays that graze an edge may go the other way after float rounding (a few pixels).
    t.true(far <= 0.08 * a.length, `${far} of ${a.length} bytes differ by more than 2`);

    const dt = await launchOnDevice(name, BUILTIN_UTILITIES.trace, { ...SIZE, repeat: 1 });
    const st = (await instrumentWorkload(name, 'trace', SIZE)).runs[0]!;
    t.is(raygenInvocations(dt.dump!, dt.metadata!), SIZE.width * SIZE.height);
    t.is(raygenInvocations(st.dump, st.metadata), SIZE.width * SIZE.height);
    const x = threadCounts(dt.dump!, dt.metadata!);
    const y = threadCounts(st.dump, st.metadata);
    let same = 0;
    for (const [k, n] of y) if (x.get(k) === n) same++;
    const all = new Set([...x.keys(), ...y.keys()]).size;
    t.log(`trace: ${same}/${all} (site, thread) counts equal`);
    // Procedural scenes run intersection shaders a different number of times (Vulkan allows it).
    t.true(same >= 0.6 * all, `${same}/${all}`);
  });
}
