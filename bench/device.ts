/**
 * Device vs simulator (issues 21 and 24): every built-in workload run on a real Vulkan device and
 * on the simulator, figures side by side, written to docs/device.md as one generated section per
 * device. Nothing in those sections is copied by hand.
 *
 *   npx tsx bench/device.ts                           lavapipe here: bundles, runs and the 'lavapipe' section
 *   npx tsx bench/device.ts cycles [W...] [--sizes a,b] [--limit S]
 *                                                     simulated cycles (rtx2060) at the table sizes -> .bench/device/cycles.json,
 *                                                     keyed by the code commit (commitKey); a run over S seconds (default 480) is skipped
 *   npx tsx bench/device.ts bundles DIR [--lavapipe]  only the bundles (for a remote GPU: native/run-bundles.sh DIR there)
 *   npx tsx bench/device.ts run DIR                   runs DIR's bundles with the native host here
 *   npx tsx bench/device.ts report DIR LABEL [--cycles-commit C]
 *                                                     reads DIR/<case>/out and writes LABEL's section (the cycles
 *                                                     columns from cycles.json's entries of commit C, default this code's)
 *
 * Cases per workload: uninstrumented at SIZES (median trace dispatch time of REPEAT repetitions,
 * vkCmdWriteTimestamp around vkCmdTraceRaysKHR), and instrumented at the workload's own size with
 * trace (thread-level figures) and, on a 32-wide GPU, simt and its (warp-level figures); on a
 * 32-wide GPU also mapping probes (tri 37 x H, which pixels share a warp) and a LumiBench WKND
 * sequence of frames. The simulator side of warp-level figures runs under NVIDIA_BEHAVIOUR (the
 * `--nvidia` option). Simulator runs are cached under .bench/device/sim (shared by the reports).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { itsEvidence, readDump, simtEfficiency, warpIdentity, type Dump } from '../src/analytics/index.js';
import { writeDeviceBundle } from '../src/device/device-bundle.js';
import { runNativeHost, DeviceUnavailableError } from '../src/device/native-host.js';
import type { DeviceInfo } from '../src/device/device-run.js';
import { runInstrumentedFrames } from '../src/driver/instrument-workload.js';
import { prepareRun, runWorkload } from '../src/driver/run-workload.js';
import { simulateWorkload } from '../src/driver/simulate-workload.js';
import { ENTRY_THREAD_WORK_ID, type InstrumentationMetadata } from '../src/primitives/buffer-layout.js';
import { NVIDIA_BEHAVIOUR, warpTile, type LaunchMapping } from '../src/sim/functional/warp-mapping.js';
import { loadConfig } from '../src/sim/timing/index.js';
import { listBuiltinWorkloads, listCalibrationWorkloads } from '../src/sim/workload/load-manifest.js';
import { BUILTIN_UTILITIES } from '../src/utilities/builtin.js';
import { commitKey } from './jobs/wknd-runs.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
/** Square frame sizes of the frame-time table (device ms beside simulated cycles). */
const SIZES = [32, 64, 128];
const CYCLES_CONFIG = 'rtx2060';
const REPEAT = 5;
const MODES = ['trace', 'simt', 'its'] as const;
type Mode = (typeof MODES)[number];
/** Heights of the mapping probes (tri, 37 wide): every rule of NVIDIA's tiles and partial edge warps. */
const MAP_HEIGHTS = [1, 2, 3, 4, 6, 8, 12, 16];
const MAP_WIDTH = 37;
const FRAMES = { workload: 'lumibench-wknd', frames: 4, size: 64 };
/** Instrumentation buffer of the bundles: lumibench-wknd-ao's trace writes 20.5 M words. */
const BUFFER_WORDS = 1 << 25;
const CYCLES_FILE = join(ROOT, '.bench', 'device', 'cycles.json');

interface Case {
  name: string;
  workload: string;
  kind: 'time' | 'mode' | 'map' | 'frames';
  mode?: Mode;
  width?: number;
  height?: number;
  frames?: number;
  repeat: number;
}

function workloads(): string[] {
  const names = listBuiltinWorkloads().map((w) => w.name);
  for (const c of listCalibrationWorkloads()) if (c.installed) names.push(c.name);
  return names;
}

function cases(lavapipe: boolean): Case[] {
  const out: Case[] = [];
  const repeat = lavapipe ? 3 : REPEAT;
  for (const w of workloads()) {
    for (const s of SIZES) out.push({ name: `${w}-${s}`, workload: w, kind: 'time', width: s, height: s, repeat });
    for (const m of lavapipe ? (['trace'] as const) : MODES) out.push({ name: `${w}-${m}`, workload: w, kind: 'mode', mode: m, repeat: 1 });
  }
  if (!lavapipe) for (const h of MAP_HEIGHTS) out.push({ name: `map-${MAP_WIDTH}x${h}`, workload: 'tri', kind: 'map', mode: 'trace', width: MAP_WIDTH, height: h, repeat: 1 });
  if (workloads().includes(FRAMES.workload)) {
    out.push({ name: `${FRAMES.workload}-frames`, workload: FRAMES.workload, kind: 'frames', width: FRAMES.size, height: FRAMES.size, frames: FRAMES.frames, repeat: 1 });
  }
  return out;
}

function runOptions(c: Case) {
  return {
    ...(c.width !== undefined ? { width: c.width, height: c.height! } : {}),
    ...(c.frames !== undefined ? { frames: c.frames } : {}),
    ...(c.mode ? { instrument: [BUILTIN_UTILITIES[c.mode]], bufferWords: BUFFER_WORDS } : {}),
  };
}

async function writeBundles(dir: string, lavapipe: boolean): Promise<Case[]> {
  const done: Case[] = [];
  for (const c of cases(lavapipe)) {
    writeDeviceBundle(await prepareRun(c.workload, runOptions(c)), join(dir, c.name, 'bundle'));
    done.push(c);
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cases.json'), JSON.stringify(done));
  return done;
}

function runBundles(dir: string): void {
  const list = JSON.parse(readFileSync(join(dir, 'cases.json'), 'utf8')) as Case[];
  for (const c of list) {
    if (existsSync(join(dir, c.name, 'out', 'device.json'))) continue;
    const t0 = performance.now();
    runNativeHost(join(dir, c.name, 'bundle'), join(dir, c.name, 'out'), { repeat: c.repeat });
    process.stdout.write(`${c.name}: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }
}

// ----- simulated cycles (cached: the timing model is the slow part) -----

/**
 * `workload@size` -> the frame's cycles, or `skippedOverS` when the run was stopped after that many
 * seconds; each entry names the code commit (commitKey) it ran at.
 */
type CycleEntry = { commit: string; coreMhz: number } & ({ cycles: number } | { skippedOverS: number });
type Cycles = Record<string, CycleEntry>;
/** Default limit of one `cycles` run, in seconds. */
const CYCLES_LIMIT_S = 480;

function readAllCycles(): Cycles {
  return existsSync(CYCLES_FILE) ? (JSON.parse(readFileSync(CYCLES_FILE, 'utf8')) as Cycles) : {};
}

/** The cache's entries from `commit` (the code's commit key): entries from another commit (or none) are ignored. */
function readCycles(commit: string): Cycles {
  return Object.fromEntries(Object.entries(readAllCycles()).filter(([, e]) => e.commit === commit));
}

/** One frame's cycles in a child process (`cycles-one W S` prints them), killed after `limitS` seconds (undefined then). */
function cyclesInChild(w: string, s: number, limitS: number): Promise<number | undefined> {
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'cycles-one', w, String(s)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => { killed = true; p.kill('SIGKILL'); }, limitS * 1000);
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => {
      clearTimeout(timer);
      if (killed) ok(undefined);
      else if (code !== 0) fail(new Error(stderr.trim().split('\n').slice(-3).join(' ') || `exit ${code}`));
      else ok(Number(stdout.trim().split('\n').pop()));
    });
  });
}

/**
 * `cycles [workload...] [--sizes a,b] [--limit S]`: the frames not in the cache at this commit, each in
 * a child process stopped after S seconds (recorded as skipped; retried only under a larger limit);
 * each result merged into the file as it comes (several can run at once).
 */
async function simulateCycles(args: string[]): Promise<void> {
  const opt = (name: string) => { const k = args.indexOf(name); return k >= 0 ? args[k + 1] : undefined; };
  const sizes = opt('--sizes')?.split(',').map(Number) ?? SIZES;
  const limitS = Number(opt('--limit') ?? CYCLES_LIMIT_S);
  const named = args.filter((a, k) => !a.startsWith('--') && !args[k - 1]?.startsWith('--'));
  const coreMhz = loadConfig(CYCLES_CONFIG).clocks.coreMhz;
  const commit = commitKey();
  process.stdout.write(`cycles at commit ${commit}\n`);
  mkdirSync(join(ROOT, '.bench', 'device'), { recursive: true });
  const merge = (key: string, e: CycleEntry) => writeFileSync(CYCLES_FILE, JSON.stringify({ ...readAllCycles(), [key]: e }, null, 1));
  for (const w of named.length > 0 ? named : workloads()) {
    for (const s of sizes) {
      const key = `${w}@${s}`;
      const have = readCycles(commit)[key];
      if (have && ('cycles' in have || have.skippedOverS >= limitS)) continue;
      const t0 = performance.now();
      let cycles: number | undefined;
      try {
        cycles = await cyclesInChild(w, s, limitS);
      } catch (e) {
        process.stdout.write(`${key}: ${(e as Error).message}\n`);
        continue;
      }
      if (cycles === undefined) {
        merge(key, { commit, coreMhz, skippedOverS: limitS });
        process.stdout.write(`${key}: skipped (over ${limitS} s)\n`);
        continue;
      }
      merge(key, { commit, coreMhz, cycles });
      process.stdout.write(`${key}: ${cycles} cycles (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
    }
  }
}

// ----- figures -----

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
const byteDiff = (a: Uint8Array, b: Uint8Array) => {
  let differ = 0;
  let max = 0;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) { differ++; max = Math.max(max, Math.abs(a[k]! - b[k]!)); }
  return { differ, max };
};

/** (site, thread-work id) -> entries, over ThreadUpdate sites. */
function threadKeys(d: Dump, md: InstrumentationMetadata): Map<string, number> {
  const s = new Map<string, number>();
  for (let k = 0; k < d.entryCount; k++) {
    if (md.sites[d.entrySite[k]!]!.primitive !== 'ThreadUpdate') continue;
    const key = `${d.entrySite[k]}:${d.words[d.entryOffsets[k]! + ENTRY_THREAD_WORK_ID]}`;
    s.set(key, (s.get(key) ?? 0) + 1);
  }
  return s;
}

/** Invocations per stage: ThreadUpdate entries of each shader's entry block. */
function invocations(d: Dump, md: InstrumentationMetadata): Map<string, number> {
  const entrySite = new Set<number>();
  for (const site of md.sites) {
    const sh = md.shaders[site.shader]!;
    const fn = sh.cfg.find((f) => f.name === sh.entryFunction) ?? sh.cfg[0];
    if (site.primitive === 'ThreadUpdate' && site.function === sh.entryFunction && fn?.blocks[0]?.id === site.block) entrySite.add(site.id);
  }
  const out = new Map<string, number>();
  for (let k = 0; k < d.entryCount; k++) {
    const s = d.entrySite[k]!;
    if (!entrySite.has(s)) continue;
    const stage = md.shaders[md.sites[s]!.shader]!.stage;
    out.set(stage, (out.get(stage) ?? 0) + 1);
  }
  return out;
}

/** Which mapping the warps of a dump follow: for each candidate, the share of warps whose pixels are exactly one tile. */
function mappingMatch(d: Dump, md: InstrumentationMetadata, w: number, h: number): Record<LaunchMapping, number> {
  const ids = warpIdentity(d, md);
  const members = new Map<number, number[]>();
  for (let t = 0; t < ids.warpOf.length; t++) {
    const warp = ids.warpOf[t]!;
    if (warp < 0 || t >= w * h) continue;
    let m = members.get(warp);
    if (!m) members.set(warp, (m = []));
    m.push(t);
  }
  const out = {} as Record<LaunchMapping, number>;
  for (const mapping of ['rows', 'tiles4x8', 'nvidia'] as const) {
    const [tw, th] = warpTile(mapping, h);
    let ok = 0;
    for (const threads of members.values()) {
      const tiles = new Set(threads.map((t) => `${Math.floor((t % w) / tw)},${Math.floor(Math.floor(t / w) / th)}`));
      if (tiles.size !== 1) continue;
      const [tx, ty] = [...tiles][0]!.split(',').map(Number) as [number, number];
      const size = (Math.min(w, (tx + 1) * tw) - tx * tw) * (Math.min(h, (ty + 1) * th) - ty * th);
      if (size === threads.length) ok++;
    }
    out[mapping] = members.size ? ok / members.size : 0;
  }
  return out;
}

const SIM_DIR = join(ROOT, '.bench', 'device', 'sim');

interface SimRun { dump: Dump; metadata: InstrumentationMetadata; image: Uint8Array }

/**
 * The simulator's instrumented run of `w` (functional; under NVIDIA_BEHAVIOUR when `nvidia`): dump,
 * metadata and the frame, cached under .bench/device/sim so the lavapipe and GPU reports share it.
 */
async function simRun(w: string, mode: Mode, nvidia: boolean): Promise<SimRun> {
  const base = join(SIM_DIR, `${w}-${mode}${nvidia ? '-nvidia' : ''}`);
  if (!existsSync(`${base}.image.bin`)) {
    const t0 = performance.now();
    const prepared = await prepareRun(w, { instrument: [BUILTIN_UTILITIES[mode]], bufferWords: 2 * BUFFER_WORDS, ...(nvidia ? NVIDIA_BEHAVIOUR : {}) });
    const { frames } = runInstrumentedFrames(prepared, { mapping: nvidia ? NVIDIA_BEHAVIOUR.mapping : 'rows', growBuffer: false });
    mkdirSync(SIM_DIR, { recursive: true });
    writeFileSync(`${base}.dump.bin`, frames[frames.length - 1]!.dumpBytes);
    writeFileSync(`${base}.meta.json`, JSON.stringify(prepared.metadata));
    const data = prepared.host.output!.levels[0]!.data;
    writeFileSync(`${base}.image.bin`, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    process.stderr.write(`simulated ${w} ${mode}${nvidia ? ' --nvidia' : ''} (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
  }
  const metadata = JSON.parse(readFileSync(`${base}.meta.json`, 'utf8')) as InstrumentationMetadata;
  return { dump: readDump(new Uint8Array(readFileSync(`${base}.dump.bin`)), metadata), metadata, image: new Uint8Array(readFileSync(`${base}.image.bin`)) };
}

function readInfo(o: string): DeviceInfo {
  return JSON.parse(readFileSync(join(o, 'device.json'), 'utf8')) as DeviceInfo;
}

async function report(dir: string, label: string, cyclesCommit?: string): Promise<string> {
  const list = JSON.parse(readFileSync(join(dir, 'cases.json'), 'utf8')) as Case[];
  const outOf = (c: Case | undefined) => (c && existsSync(join(dir, c.name, 'out', 'device.json')) ? join(dir, c.name, 'out') : undefined);
  let info: DeviceInfo | undefined;
  const wide = list.some((c) => c.mode === 'simt');
  const rows: string[] = [];
  const warpRows: string[] = [];
  const shaderRows: string[] = [];
  const times: string[] = [];
  for (const w of workloads()) {
    const mine = list.filter((c) => c.workload === w);
    if (mine.length === 0) continue;
    // Image at the workload's own size (the trace case's image: instrumentation does not change it).
    const traceCase = mine.find((c) => c.mode === 'trace');
    const to = outOf(traceCase);
    if (!to) {
      rows.push(`| ${w} | not run | | | |`);
      continue;
    }
    const ti = readInfo(to);
    info ??= ti;
    process.stderr.write(`${w}\n`);
    const simTrace = await simRun(w, 'trace', false);
    const simBytes = simTrace.image;
    const im = byteDiff(simBytes, new Uint8Array(readFileSync(join(to, 'image.bin'))));
    const image = im.differ === 0 ? 'identical' : `${im.differ} of ${simBytes.length} bytes differ (max ${im.max})`;
    // Thread level: (site, thread) entries and invocations per stage.
    const meta = { ...simTrace.metadata, warpSize: ti.ranSubgroupSize };
    const dump = readDump(new Uint8Array(readFileSync(join(to, 'dump.bin'))), meta, { allowOverflow: true });
    let trace: string;
    let inv: string;
    if (dump.overflowed) {
      trace = `buffer too small (${dump.requiredWords} words)`;
      inv = '—';
    } else {
      const a = threadKeys(dump, meta);
      const b = threadKeys(simTrace.dump, simTrace.metadata);
      let same = 0;
      for (const [k, n] of b) if (a.get(k) === n) same++;
      trace = `${same}/${new Set([...a.keys(), ...b.keys()]).size}`;
      const ia = invocations(dump, meta);
      const ib = invocations(simTrace.dump, simTrace.metadata);
      inv = [...new Set([...ib.keys(), ...ia.keys()])].map((s) => (ia.get(s) === ib.get(s) ? `${s} ${ia.get(s)} =` : `${s} ${ia.get(s) ?? 0} vs ${ib.get(s) ?? 0}`)).join(', ');
    }
    let mapShare = '—';
    if (!dump.overflowed && ti.ranSubgroupSize === 32) {
      const [lw, lh] = (await prepareRun(w)).host.launch;
      mapShare = pct(mappingMatch(dump, meta, lw, lh).nvidia);
    }
    rows.push(`| ${w} | ${image} | ${trace} | ${inv} | ${ti.medianTraceMs.toFixed(3)} |`);
    if (!wide) continue;
    // Warp level (32 lanes): SIMT efficiency and ITS exit/entry, device vs simulator under NVIDIA's behaviour.
    const fig: Record<string, string> = {};
    for (const m of ['simt', 'its'] as const) {
      const o = outOf(mine.find((c) => c.mode === m));
      if (!o) { fig[m] = '—'; continue; }
      const i = readInfo(o);
      const nv = await simRun(w, m, true);
      const md = { ...nv.metadata, warpSize: i.ranSubgroupSize };
      const d = readDump(new Uint8Array(readFileSync(join(o, 'dump.bin'))), md, { allowOverflow: true });
      if (d.overflowed) { fig[m] = `buffer too small (${d.requiredWords} words)`; continue; }
      const value = m === 'simt'
        ? (x: Dump, y: InstrumentationMetadata) => pct(simtEfficiency(x, y).overall.efficiency)
        : (x: Dump, y: InstrumentationMetadata) => itsEvidence(x, y).exitPerEntry.toFixed(3);
      fig[m] = `${value(d, md)} / ${value(nv.dump, nv.metadata)}`;
      if (m === 'simt') {
        // Per shader, instruction-weighted: which stages the difference comes from.
        const a = simtEfficiency(d, md).perShader;
        const b = simtEfficiency(nv.dump, nv.metadata).perShader;
        const cells = b.map((s) => {
          const x = a.find((t) => t.name === s.name && t.stage === s.stage);
          if (!x) return `${s.name} — / ${pct(s.instructionEfficiency)}`;
          const same = Math.abs(x.instructionEfficiency - s.instructionEfficiency) < 0.00005 && x.warpInstructions === s.warpInstructions;
          return same ? `${s.name} =` : `${s.name} ${pct(x.instructionEfficiency)} (${x.warpInstructions}) / ${pct(s.instructionEfficiency)} (${s.warpInstructions})`;
        });
        shaderRows.push(`| ${w} | ${cells.join(', ')} |`);
      }
    }
    warpRows.push(`| ${w} | ${fig.simt} | ${fig.its} | ${mapShare} |`);
  }
  // Frame times beside simulated cycles (read last: `cycles` may still be filling the cache).
  const code = commitKey();
  const commit = cyclesCommit ?? code;
  const cycles = readCycles(commit);
  const skipped: string[] = [];
  for (const w of workloads()) {
    const mine = list.filter((c) => c.workload === w && c.kind === 'time');
    if (mine.length === 0) continue;
    const cells: string[] = [];
    for (const s of SIZES) {
      const o = outOf(mine.find((c) => c.width === s));
      const i = o ? readInfo(o) : undefined;
      info ??= i;
      const e = cycles[`${w}@${s}`];
      const sim = e && 'cycles' in e ? e : undefined;
      if (e && !sim) skipped.push(`${w} ${s}x${s}`);
      const simMs = sim ? sim.cycles / sim.coreMhz / 1000 : undefined;
      const cyc = sim ? sim.cycles.toLocaleString('en-US') : e && 'skippedOverS' in e ? `skipped (> ${e.skippedOverS} s)` : '—';
      cells.push(`${i ? i.medianTraceMs.toFixed(3) : '—'} | ${cyc} | ${simMs !== undefined ? simMs.toFixed(3) : '—'}`);
    }
    times.push(`| ${w} | ${cells.join(' | ')} |`);
  }
  // Mapping probes.
  const mapRows: string[] = [];
  for (const c of list.filter((x) => x.kind === 'map')) {
    const o = outOf(c);
    if (!o) continue;
    const i = readInfo(o);
    const pm = await prepareRun(c.workload, runOptions(c));
    const md = { ...pm.metadata!, warpSize: i.ranSubgroupSize };
    const d = readDump(new Uint8Array(readFileSync(join(o, 'dump.bin'))), md);
    const mm = mappingMatch(d, md, c.width!, c.height!);
    const [tw, th] = warpTile('nvidia', c.height!);
    mapRows.push(`| ${c.width}x${c.height} | ${tw}x${th} | ${pct(mm.nvidia)} | ${pct(mm.tiles4x8)} | ${pct(mm.rows)} |`);
  }
  // Frames.
  const frameRows: string[] = [];
  const fc = list.find((c) => c.kind === 'frames');
  const fo = outOf(fc);
  if (fc && fo) {
    const fi = readInfo(fo);
    const sim = await runWorkload(fc.workload, { width: fc.width!, height: fc.height!, frames: fc.frames!, frameImages: true });
    for (let f = 0; f < fc.frames!; f++) {
      const d = sim.frames[f]!.image!.levels[0]!.data;
      const dv = byteDiff(new Uint8Array(d.buffer, d.byteOffset, d.byteLength), new Uint8Array(readFileSync(join(fo, `image.f${String(f).padStart(3, '0')}.bin`))));
      frameRows.push(`| ${f} | ${d.byteLength} | ${dv.differ} (max ${dv.max}) | ${(fi.traceMs[f] ?? 0).toFixed(3)} |`);
    }
  }

  const lines = [
    `## ${label}`, '',
    info ? `Device: ${info.device}, driver ${info.driver} (${info.driverInfo}), Vulkan ${info.apiVersion}, subgroup size ${info.subgroupSize} (ran with ${info.ranSubgroupSize}).` : 'No device outputs.',
    '',
    'Every workload at its own size, uninstrumented image and `trace` instrumentation, against the simulator\'s run of the same',
    'bundle. Entries: the (site, thread) pairs of ThreadUpdate entries whose counts are equal, of all pairs either side saw.',
    'Invocations: executions of each stage\'s entry block, device vs simulator (`=`: equal).',
    '',
    '| workload | image vs simulator | trace: (site, thread) entries equal | invocations per stage | trace ms (instrumented) |',
    '|---|---|---|---|---|', ...rows, '',
  ];
  if (wide) {
    lines.push(
      'Warp-level figures (32 lanes): device / simulator with `--nvidia` (NVIDIA_BEHAVIOUR: NVIDIA tiles, ITS with barriers).',
      'Last column: share of the device\'s warps (CreateWarpId of the trace run) that are exactly one NVIDIA tile.', '',
      '| workload | SIMT efficiency per block: device / --nvidia | ITS exit/entry: device / --nvidia | warps = NVIDIA tiles |',
      '|---|---|---|---|', ...warpRows, '',
      'SIMT efficiency per shader, instruction-weighted (`simt` dumps): device (warp instructions) / simulator with `--nvidia`;',
      '`=`: the same efficiency over the same number of warp instructions.', '',
      '| workload | per shader: device / --nvidia |',
      '|---|---|', ...shaderRows, '',
    );
  }
  if (mapRows.length > 0) {
    lines.push(
      `Launch mapping probes: \`tri\` at ${MAP_WIDTH} x H, \`trace\` instrumentation (CreateWarpId); share of the device's warps whose pixels are exactly one tile of each mapping.`, '',
      '| launch | NVIDIA tile (`--mapping nvidia`) | = nvidia | = tiles4x8 | = rows |', '|---|---|---|---|---|', ...mapRows, '',
    );
  }
  lines.push(
    `Frame times: median trace dispatch (ms, ${list.find((c) => c.kind === 'time')?.repeat ?? REPEAT} repetitions, vkCmdWriteTimestamp around vkCmdTraceRaysKHR), uninstrumented, beside the`,
    `simulator's cycles for the same frame on the \`${CYCLES_CONFIG}\` configuration and those cycles at its core clock (\`npx tsx bench/device.ts cycles\`),`,
    commit === code
      ? `cycles simulated at code commit \`${commit}\` (entries of .bench/device/cycles.json from other commits are not shown).`
      : `cycles simulated at code commit \`${commit}\` (--cycles-commit; this report was made at code commit \`${code}\`).`,
    `'—': no cycles at that commit${skipped.length > 0 ? `; skipped: the simulation was stopped after the limit shown (${skipped.join(', ')})` : ''}.`, '',
    `| workload | ${SIZES.map((s) => `${s}x${s} device ms | cycles | sim ms`).join(' | ')} |`,
    `|---|${SIZES.map(() => '---|---|---|').join('')}`, ...times, '',
  );
  if (frameRows.length > 0) {
    lines.push(
      `Multi-frame run (issue 24): \`${fc!.workload}\` ${fc!.width}x${fc!.height}, ${fc!.frames} frames accumulating in one sequence on the device (one launch per frame,`,
      'the accumulation image kept, the uniform buffer written before each frame), each frame\'s image against the simulator\'s frame.', '',
      '| frame | bytes | differ from the simulator | device ms |', '|---|---|---|---|', ...frameRows, '',
    );
  }
  return lines.join('\n');
}

/** Replaces (or appends) the `## label` section of docs/device.md. */
function writeSection(label: string, section: string): void {
  const path = join(ROOT, 'docs', 'device.md');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '# Real Vulkan devices vs the simulator\n\n';
  const parts = text.split(/^(?=## )/m);
  const i = parts.findIndex((p) => p.startsWith(`## ${label}\n`));
  if (i >= 0) parts[i] = `${section}\n`;
  else parts.push(`${section}\n`);
  writeFileSync(path, parts.join(''));
}

async function main(): Promise<void> {
  const [cmd, dirArg, label] = process.argv.slice(2);
  if (cmd === 'cycles') return simulateCycles(process.argv.slice(3));
  if (cmd === 'cycles-one') {
    const s = Number(label);
    process.stdout.write(`${(await simulateWorkload(dirArg!, { config: CYCLES_CONFIG, width: s, height: s })).stats.values.gpu_sim_cycle}\n`);
    return;
  }
  if (cmd === 'bundles') {
    const n = (await writeBundles(resolve(dirArg!), process.argv.includes('--lavapipe'))).length;
    process.stdout.write(`wrote ${n} bundles under ${dirArg}\n`);
    return;
  }
  if (cmd === 'run') return runBundles(resolve(dirArg!));
  if (cmd === 'report') {
    const k = process.argv.indexOf('--cycles-commit');
    const section = await report(resolve(dirArg!), label ?? 'device', k >= 0 ? process.argv[k + 1] : undefined);
    writeSection(label ?? 'device', section);
    process.stdout.write(section);
    return;
  }
  const dir = join(ROOT, '.bench', 'device-lavapipe');
  if (!existsSync(join(dir, 'cases.json'))) await writeBundles(dir, true);
  try {
    runBundles(dir);
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

await main();
