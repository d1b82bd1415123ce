/**
 * Device vs simulator (issue 21): the built-in workloads the device host supports, run on a real
 * Vulkan device and on the simulator, figures side by side, written to docs/device.md.
 *
 *   npx tsx bench/device.ts                      bundles, runs them on the local device (lavapipe), writes the lavapipe section
 *   npx tsx bench/device.ts bundles DIR          only writes the bundles (for a remote GPU: run native/run-bundles.sh there)
 *   npx tsx bench/device.ts report DIR LABEL     reads DIR/<case>/out (the host's outputs) and writes LABEL's section
 *
 * Per case: image difference to the simulator's frame; thread-level entries (trace) equal or not;
 * SIMT efficiency per block execution from the simt dump (device warp size vs 32); ITS exit/entry;
 * median trace dispatch time over 5 repetitions. Without a device the script says so and exits 0.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { itsEvidence, readDump, simtEfficiency } from '../src/analytics/index.js';
import { writeDeviceBundle } from '../src/device/device-bundle.js';
import { runNativeHost, DeviceUnavailableError } from '../src/device/native-host.js';
import { instrumentWorkload } from '../src/driver/instrument-workload.js';
import { prepareRun, runWorkload } from '../src/driver/run-workload.js';
import { ENTRY_THREAD_WORK_ID } from '../src/primitives/buffer-layout.js';
import { BUILTIN_UTILITIES } from '../src/utilities/builtin.js';
import type { DeviceInfo } from '../src/device/device-run.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const WORKLOADS = ['tri', 'ao', 'pt', 'its-shapes', 'call', 'rtv6', 'bunny', 'ref'];
const MODES = ['simt', 'its', 'trace'] as const;
/** Frame-time sizes: the workload's own, and twice and four times each side. */
const SCALES = [1, 2, 4];
const BUFFER_WORDS = 1 << 24;

interface Case { name: string; workload: string; mode?: (typeof MODES)[number]; scale: number }

function cases(): Case[] {
  const out: Case[] = [];
  for (const w of WORKLOADS) {
    for (const s of SCALES) out.push({ name: `${w}-x${s}`, workload: w, scale: s });
    for (const m of MODES) out.push({ name: `${w}-${m}`, workload: w, mode: m, scale: 1 });
  }
  return out;
}

async function writeBundles(dir: string): Promise<Case[]> {
  const done: Case[] = [];
  for (const c of cases()) {
    const base = await prepareRun(c.workload);
    const size = { width: base.params.width * c.scale, height: base.params.height * c.scale };
    const p = await prepareRun(c.workload, { ...size, ...(c.mode ? { instrument: [BUILTIN_UTILITIES[c.mode]], bufferWords: BUFFER_WORDS } : {}) });
    writeDeviceBundle(p, join(dir, c.name, 'bundle'));
    done.push(c);
  }
  writeFileSync(join(dir, 'cases.json'), JSON.stringify(done));
  return done;
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

async function report(dir: string, label: string): Promise<string> {
  const list = JSON.parse(readFileSync(join(dir, 'cases.json'), 'utf8')) as Case[];
  const rows: string[] = [];
  const times: string[] = [];
  let info: DeviceInfo | undefined;
  for (const w of WORKLOADS) {
    const outOf = (c: Case | undefined) => c && existsSync(join(dir, c.name, 'out', 'device.json')) ? join(dir, c.name, 'out') : undefined;
    const sized = SCALES.map((s) => list.find((c) => c.workload === w && c.scale === s && !c.mode));
    const t: string[] = [];
    for (const c of sized) {
      const o = outOf(c);
      if (!o) { t.push('—'); continue; }
      const i = JSON.parse(readFileSync(join(o, 'device.json'), 'utf8')) as DeviceInfo;
      info ??= i;
      t.push(i.medianTraceMs.toFixed(3));
    }
    const base = await prepareRun(w);
    times.push(`| ${w} | ${SCALES.map((s) => `${base.params.width * s}x${base.params.height * s}`).join(', ')} | ${t.join(' / ')} |`);
    // Image against the simulator (own size, uninstrumented).
    const o1 = outOf(sized[0]);
    let image = '—';
    if (o1) {
      const sim = await runWorkload(w);
      const data = sim.image!.levels[0]!.data;
      const dev = new Uint8Array(readFileSync(join(o1, 'image.bin')));
      const simBytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      let differ = 0;
      for (let k = 0; k < simBytes.length; k++) if (simBytes[k] !== dev[k]) differ++;
      image = differ === 0 ? 'identical' : `${differ} of ${simBytes.length} bytes differ`;
    }
    // Instrumented figures: device dump vs the simulator's run of the same utility.
    const fig: Record<string, string> = {};
    for (const m of MODES) {
      const c = list.find((x) => x.workload === w && x.mode === m);
      const o = outOf(c);
      if (!o) { fig[m] = '—'; continue; }
      const i = JSON.parse(readFileSync(join(o, 'device.json'), 'utf8')) as DeviceInfo;
      const p = await prepareRun(w, { instrument: [BUILTIN_UTILITIES[m]], bufferWords: 16 });
      const meta = { ...p.metadata!, warpSize: i.ranSubgroupSize };
      const dump = readDump(new Uint8Array(readFileSync(join(o, 'dump.bin'))), meta, { allowOverflow: true });
      const sim = (await instrumentWorkload(w, m)).runs[0]!;
      if (dump.overflowed) { fig[m] = `overflow (${dump.requiredWords} words)`; continue; }
      if (m === 'simt') {
        fig[m] = `${pct(simtEfficiency(dump, meta).overall.efficiency)} (${i.ranSubgroupSize} lanes) vs ${pct(simtEfficiency(sim.dump, sim.metadata).overall.efficiency)} (32)`;
      } else if (m === 'its') {
        fig[m] = `${itsEvidence(dump, meta).exitPerEntry.toFixed(3)} vs ${itsEvidence(sim.dump, sim.metadata).exitPerEntry.toFixed(3)}`;
      } else {
        const keys = (d: typeof dump, md: typeof meta) => {
          const s = new Map<string, number>();
          for (let k = 0; k < d.entryCount; k++) {
            if (md.sites[d.entrySite[k]!]!.primitive !== 'ThreadUpdate') continue;
            const key = `${d.entrySite[k]}:${d.words[d.entryOffsets[k]! + ENTRY_THREAD_WORK_ID]}`;
            s.set(key, (s.get(key) ?? 0) + 1);
          }
          return s;
        };
        const a = keys(dump, meta);
        const b = keys(sim.dump, sim.metadata);
        let same = 0;
        for (const [k, n] of b) if (a.get(k) === n) same++;
        const all = new Set([...a.keys(), ...b.keys()]).size;
        fig[m] = `${same}/${all} equal`;
      }
    }
    rows.push(`| ${w} | ${image} | ${fig.trace} | ${fig.simt} | ${fig.its} |`);
  }
  return [
    `## ${label}`, '',
    info ? `Device: ${info.device}, driver ${info.driver} (${info.driverInfo}), Vulkan ${info.apiVersion}, subgroup size ${info.subgroupSize} (ran with ${info.ranSubgroupSize}).` : 'No device outputs.',
    '',
    '| workload | image vs simulator | trace: (site, thread) entries equal | SIMT efficiency per block: device vs simulator | ITS exit/entry: device vs simulator |',
    '|---|---|---|---|---|', ...rows, '',
    'Median trace dispatch time (ms, 5 repetitions, vkCmdWriteTimestamp around vkCmdTraceRaysKHR), uninstrumented:', '',
    '| workload | sizes | ms |', '|---|---|---|', ...times, '',
  ].join('\n');
}

async function main(): Promise<void> {
  const [cmd, dirArg, label] = process.argv.slice(2);
  if (cmd === 'bundles') {
    const n = (await writeBundles(resolve(dirArg!))).length;
    process.stdout.write(`wrote ${n} bundles under ${dirArg}\n`);
    return;
  }
  if (cmd === 'report') {
    const section = await report(resolve(dirArg!), label ?? 'device');
    writeSection(label ?? 'device', section);
    process.stdout.write(section);
    return;
  }
  const dir = join(ROOT, '.bench', 'device-lavapipe');
  mkdirSync(dir, { recursive: true });
  const list = await writeBundles(dir);
  try {
    for (const c of list) runNativeHost(join(dir, c.name, 'bundle'), join(dir, c.name, 'out'), { repeat: 5 });
  } catch (e) {
    if (e instanceof DeviceUnavailableError) {
      process.stdout.write(`no Vulkan device here (${e.message}); nothing measured\n`);
      return;
    }
    throw e;
  }
  const section = await report(dir, 'lavapipe');
  writeSection('lavapipe', section);
  process.stdout.write(section);
}

/** Replaces (or appends) the `## label` section of docs/device.md. */
function writeSection(label: string, section: string): void {
  const path = join(ROOT, 'docs', 'device.md');
  const head = '# Real Vulkan devices vs the simulator\n\nGenerated by `bench/device.ts` (do not edit the sections by hand).\n\n';
  const text = existsSync(path) ? readFileSync(path, 'utf8') : head;
  const parts = text.split(/^(?=## )/m);
  const i = parts.findIndex((p) => p.startsWith(`## ${label}\n`));
  if (i >= 0) parts[i] = `${section}\n`;
  else parts.push(`${section}\n`);
  writeFileSync(path, parts.join(''));
  void readdirSync;
}

await main();
