/**
 * Device checks of issue 21's second round, beside bench/device.ts (whose tables are generated into
 * docs/device.md): the figures the hand-written part of docs/device.md quotes for mip chains and for
 * instrumented any-hit shaders, from a device's outputs.
 *
 *   npx tsx bench/device-checks.ts bundles DIR   the bundles (run them with native/run-bundles.sh DIR on the device)
 *   npx tsx bench/device-checks.ts report DIR    reads DIR/<case>/out: trace times, images against the
 *                                                simulator and the uninstrumented run, mip LOD ties
 *
 * Cases: `mip-lod` (test/device/fixtures/mip-lod: textureLod at LOD x/8, texelFetch of every level);
 * `loops`, `loops-simt`, `loops-divergence` (test/device/fixtures/anyhit-loops: alpha's cutout
 * decided in nested loops, the exits deferred by defer-any-hit-exits.ts); `alpha-simt`,
 * `alpha-divergence`, `alpha-paths` (the modes that hung or never ran on the H100 before the fix);
 * `<workload>-divergence` and `<workload>-paths` for every built-in workload (bench/device.ts runs
 * trace, simt and its): that they run, and their entries beside the simulator's under `--nvidia`
 * (both utilities record warp-level ballots, so the counts follow how the device forms and splits
 * its warps).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeDeviceBundle } from '../src/device/device-bundle.js';
import type { DeviceInfo } from '../src/device/device-run.js';
import { prepareRun, runWorkload } from '../src/driver/run-workload.js';
import { BUILTIN_UTILITIES } from '../src/utilities/builtin.js';
import { readDump } from '../src/analytics/index.js';
import { instrumentWorkload } from '../src/driver/instrument-workload.js';
import { NVIDIA_BEHAVIOUR } from '../src/sim/functional/warp-mapping.js';
import { listBuiltinWorkloads } from '../src/sim/workload/load-manifest.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const MIP_LOD = join(ROOT, 'test/device/fixtures/mip-lod/workload.json');
const LOOPS = join(ROOT, 'test/device/fixtures/anyhit-loops/workload.json');
const WORDS = 1 << 24;

type Mode = 'simt' | 'divergence' | 'paths';
const CASES: { name: string; workload: string; mode?: Mode }[] = [
  { name: 'mip-lod', workload: MIP_LOD },
  { name: 'loops', workload: LOOPS },
  { name: 'loops-simt', workload: LOOPS, mode: 'simt' },
  { name: 'loops-divergence', workload: LOOPS, mode: 'divergence' },
  { name: 'alpha-simt', workload: 'alpha', mode: 'simt' },
  { name: 'alpha-divergence', workload: 'alpha', mode: 'divergence' },
  { name: 'alpha-paths', workload: 'alpha', mode: 'paths' },
  ...listBuiltinWorkloads().filter((w) => w.name !== 'alpha').flatMap((w) => (['divergence', 'paths'] as const).map((mode) => ({ name: `${w.name}-${mode}`, workload: w.name, mode }))),
];

const bytes = (d: ArrayBufferView) => new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
function diff(a: Uint8Array, b: Uint8Array, skip: (i: number) => boolean = () => false): string {
  let n = 0;
  let max = 0;
  for (let i = 0; i < a.length; i++) if (!skip(i) && a[i] !== b[i]) { n++; max = Math.max(max, Math.abs(a[i]! - b[i]!)); }
  return n === 0 ? 'identical' : `${n} of ${a.length} bytes differ (max ${max})`;
}

async function bundles(dir: string): Promise<void> {
  for (const c of CASES) {
    const opts = c.mode ? { instrument: [BUILTIN_UTILITIES[c.mode]], bufferWords: WORDS } : {};
    writeDeviceBundle(await prepareRun(c.workload, opts), join(dir, c.name, 'bundle'));
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cases.json'), JSON.stringify(CASES.map((c) => c.name)));
  process.stdout.write(`wrote ${CASES.length} bundles under ${dir}\n`);
}

async function report(dir: string): Promise<void> {
  const out = (c: string) => join(dir, c, 'out');
  const ran = (c: string) => existsSync(join(out(c), 'device.json'));
  const image = (c: string) => new Uint8Array(readFileSync(join(out(c), 'image.bin')));
  const lines: string[] = [];
  for (const c of CASES) {
    if (!ran(c.name)) { lines.push(`${c.name}: not run`); continue; }
    const info = JSON.parse(readFileSync(join(out(c.name), 'device.json'), 'utf8')) as DeviceInfo;
    lines.push(`${c.name}: ${info.device}, subgroup ${info.ranSubgroupSize}, median trace ${info.medianTraceMs.toFixed(3)} ms`);
  }
  if (ran('mip-lod')) {
    const sim = bytes((await runWorkload(MIP_LOD)).image!.levels[0]!.data);
    const dev = image('mip-lod');
    // Rows 0-31 sample at LOD x/8: columns x % 8 == 4 are the ties n + 0.5.
    const tie = (i: number) => { const p = i >> 2; return (p >> 6) < 32 && (p % 64) % 8 === 4; };
    lines.push(`mip-lod vs simulator, ties excluded: ${diff(sim, dev, tie)}`);
    const rows = new Map<number, number>();
    for (let p = 0; p < 64 * 32; p++) {
      if ((p % 64) % 8 !== 4) continue;
      if ([0, 1, 2, 3].some((k) => sim[4 * p + k] !== dev[4 * p + k])) rows.set(p % 64, (rows.get(p % 64) ?? 0) + 1);
    }
    lines.push(`mip-lod ties where the device's level is not the simulator's (LOD: rows of 32): ${[...rows].map(([x, n]) => `${x / 8}: ${n}`).join(', ') || 'none'}`);
  }
  if (ran('loops')) {
    const sim = bytes((await runWorkload(LOOPS)).image!.levels[0]!.data);
    for (const c of ['loops', 'loops-simt', 'loops-divergence']) {
      if (ran(c)) lines.push(`${c}: vs simulator ${diff(sim, image(c))}; vs the uninstrumented device frame ${diff(image('loops'), image(c))}`);
    }
  }
  // Every built-in workload under divergence and paths: entries beside the simulator's under NVIDIA's behaviour.
  for (const c of CASES.filter((x) => x.mode && x.workload !== LOOPS && ran(x.name))) {
    const sim = (await instrumentWorkload(c.workload, c.mode!, { ...NVIDIA_BEHAVIOUR })).runs[0]!;
    const info = JSON.parse(readFileSync(join(out(c.name), 'device.json'), 'utf8')) as DeviceInfo;
    const md = { ...sim.metadata, warpSize: info.ranSubgroupSize };
    const dump = readDump(new Uint8Array(readFileSync(join(out(c.name), 'dump.bin'))), md, { allowOverflow: true });
    if (dump.overflowed) { lines.push(`${c.name}: buffer too small (${dump.requiredWords} words)`); continue; }
    lines.push(`${c.name}: ${dump.entryCount} entries (simulator --nvidia ${sim.dump.entryCount}), ${info.medianTraceMs.toFixed(3)} ms`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

const [cmd, dir] = process.argv.slice(2);
if (cmd === 'bundles' && dir) await bundles(resolve(dir));
else if (cmd === 'report' && dir) await report(resolve(dir));
else process.stderr.write('usage: npx tsx bench/device-checks.ts bundles|report DIR\n');
