/**
 * `vvision compare <run-dir> <run-dir>`: two runs of one workload (simulator vs device, or two
 * devices) side by side, each figure with a verdict. Reads only what run directories hold (the
 * dumps, their metadata, image.png, device.json), so it cannot tell where a run came from.
 *
 * Figures: image difference; per shader, the thread-level entries (ThreadUpdate sites: their count
 * is the number of thread executions of the instrumented blocks, a scheduling-independent
 * figure); the multiset of (site, thread-work id) over ThreadUpdate entries; SIMT efficiency
 * overall and per site (comparable only at equal warp sizes: lavapipe's subgroup is 8 lanes);
 * ITS exit/entry per raygen; the warp size each ran with.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { portablePath } from '../report/portable-path.js';
import { ENTRY_THREAD_WORK_ID } from '../primitives/buffer-layout.js';
import { readSavedDump } from '../analytics/dump-reader.js';
import { parseMetadata } from '../analytics/metadata-reader.js';
import { loadRunDir, type RunData, type RunRecord } from './run-dir.js';

export type Verdict = 'equal' | 'close' | 'differs' | 'not comparable';

export interface ComparedFigure {
  figure: string;
  a: string;
  b: string;
  verdict: Verdict;
  note?: string;
}

export interface RunComparison {
  a: string;
  b: string;
  figures: ComparedFigure[];
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

function source(dir: string): string {
  const dev = join(dir, 'device.json');
  if (existsSync(dev)) return (JSON.parse(readFileSync(dev, 'utf8')) as { device: string }).device;
  return 'simulator';
}

export function compareRuns(dirA: string, dirB: string): RunComparison {
  const figures: ComparedFigure[] = [];
  // Named as from the working directory (or by folder name): compare.json travels; machine paths do not.
  const name = (dir: string): string => portablePath(dir, process.cwd());
  const out: RunComparison = { a: `${name(dirA)} (${source(dirA)})`, b: `${name(dirB)} (${source(dirB)})`, figures };
  const imgA = join(dirA, 'image.png');
  const imgB = join(dirB, 'image.png');
  if (existsSync(imgA) && existsSync(imgB)) {
    const a = PNG.sync.read(readFileSync(imgA));
    const b = PNG.sync.read(readFileSync(imgB));
    if (a.width !== b.width || a.height !== b.height) {
      figures.push({ figure: 'image', a: `${a.width}x${a.height}`, b: `${b.width}x${b.height}`, verdict: 'not comparable' });
    } else {
      let pixels = 0;
      let max = 0;
      for (let p = 0; p < a.width * a.height; p++) {
        let d = 0;
        for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(a.data[4 * p + c]! - b.data[4 * p + c]!));
        if (d > 0) pixels++;
        max = Math.max(max, d);
      }
      figures.push({
        figure: 'image', a: `${a.width}x${a.height}`, b: `${pixels} pixels differ, max ${max}/255`,
        verdict: pixels === 0 ? 'equal' : max <= 2 ? 'close' : 'differs',
      });
    }
  }
  if (!existsSync(join(dirA, 'run.json')) || !existsSync(join(dirB, 'run.json'))) return out;
  const ra = loadRunDir(dirA);
  const rb = loadRunDir(dirB);
  const modes = ra.record.modes.map((m) => m.mode).filter((m) => rb.record.modes.some((x) => x.mode === m));
  for (const mode of modes) {
    const ta = threadEntries(dirA, mode, ra.record);
    const tb = threadEntries(dirB, mode, rb.record);
    for (const [shader, n] of ta.perShader) {
      const m = tb.perShader.get(shader) ?? 0;
      figures.push({ figure: `${mode}: thread entries of ${shader}`, a: String(n), b: String(m), verdict: n === m ? 'equal' : 'differs' });
    }
    let same = 0;
    for (const [k, n] of ta.multiset) if (tb.multiset.get(k) === n) same++;
    const keys = new Set([...ta.multiset.keys(), ...tb.multiset.keys()]).size;
    if (keys > 0) {
      figures.push({
        figure: `${mode}: (site, thread) entry multiset`, a: `${ta.multiset.size} keys`, b: `${tb.multiset.size} keys, ${same}/${keys} equal`,
        verdict: same === keys ? 'equal' : 'differs',
      });
    }
    figures.push({ figure: `${mode}: warp size`, a: String(ra.metadata[mode]!.warpSize), b: String(rb.metadata[mode]!.warpSize), verdict: ra.metadata[mode]!.warpSize === rb.metadata[mode]!.warpSize ? 'equal' : 'differs' });
  }
  simtFigures(ra, rb, figures);
  for (const x of ra.results.its ?? []) {
    const y = rb.results.its?.find((i) => i.invocation === x.invocation);
    if (!y) continue;
    const same = Math.abs(x.evidence.exitPerEntry - y.evidence.exitPerEntry) < 1e-9;
    // Warps split and leave per warp: 8-lane warps (lavapipe) against 32-lane ones say nothing about either.
    const wa = ra.metadata.its?.warpSize;
    const wb = rb.metadata.its?.warpSize;
    const f: ComparedFigure = { figure: `ITS exit/entry (${x.invocation})`, a: x.evidence.exitPerEntry.toFixed(3), b: y.evidence.exitPerEntry.toFixed(3), verdict: wa !== wb ? 'not comparable' : same ? 'equal' : 'differs' };
    if (wa !== wb) f.note = `warp sizes ${wa} and ${wb}: ITS exit/entry is comparable only at equal warp sizes`;
    figures.push(f);
  }
  return out;
}

function simtFigures(ra: RunData, rb: RunData, figures: ComparedFigure[]): void {
  const a = ra.results.simt;
  const b = rb.results.simt;
  if (!a || !b) return;
  const comparable = a.warpSize === b.warpSize;
  const note = comparable ? undefined : `warp sizes ${a.warpSize} and ${b.warpSize}: SIMT figures are comparable only at equal warp sizes`;
  const fig = (figure: string, x: number, y: number): ComparedFigure => {
    const f: ComparedFigure = { figure, a: pct(x), b: pct(y), verdict: !comparable ? 'not comparable' : Math.abs(x - y) < 1e-12 ? 'equal' : Math.abs(x - y) < 0.005 ? 'close' : 'differs' };
    if (note) f.note = note;
    return f;
  };
  figures.push(fig('SIMT efficiency per block execution', a.overall.efficiency, b.overall.efficiency));
  figures.push(fig('SIMT efficiency instruction-weighted', a.overall.instructionEfficiency, b.overall.instructionEfficiency));
  let equal = 0;
  let worst = 0;
  for (const s of a.perSite) {
    const t = b.perSite.find((x) => x.site === s.site);
    if (!t) continue;
    const ea = s.executions === 0 ? 0 : s.activeThreads / (a.warpSize * s.executions);
    const eb = t.executions === 0 ? 0 : t.activeThreads / (b.warpSize * t.executions);
    if (Math.abs(ea - eb) < 1e-12) equal++;
    worst = Math.max(worst, Math.abs(ea - eb));
  }
  const f: ComparedFigure = {
    figure: 'SIMT efficiency per site', a: `${a.perSite.length} sites`, b: `${equal} equal, largest difference ${pct(worst)}`,
    verdict: !comparable ? 'not comparable' : equal === a.perSite.length ? 'equal' : worst < 0.05 ? 'close' : 'differs',
  };
  if (note) f.note = note;
  figures.push(f);
}

/** Thread-level (ThreadUpdate) entries of one mode: count per shader and per (site, thread-work id). */
function threadEntries(dir: string, mode: string, record: RunRecord): { perShader: Map<string, number>; multiset: Map<string, number> } {
  const meta = parseMetadata(readFileSync(join(dir, 'runs', mode, 'metadata.json'), 'utf8'), mode);
  const dump = readSavedDump(new Uint8Array(readFileSync(join(dir, 'runs', mode, 'dump.bin'))), meta, record.modes.find((m) => m.mode === mode)?.bufferWords);
  const perShader = new Map<string, number>();
  const multiset = new Map<string, number>();
  for (let k = 0; k < dump.entryCount; k++) {
    const site = meta.sites[dump.entrySite[k]!]!;
    if (site.primitive !== 'ThreadUpdate') continue;
    const shader = meta.shaders[site.shader]?.name ?? String(site.shader);
    perShader.set(shader, (perShader.get(shader) ?? 0) + 1);
    const key = `${site.id}:${dump.words[dump.entryOffsets[k]! + ENTRY_THREAD_WORK_ID]}`;
    multiset.set(key, (multiset.get(key) ?? 0) + 1);
  }
  return { perShader, multiset };
}

/** A self-contained HTML page of the comparison. */
export function comparisonHtml(c: RunComparison): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const rows = c.figures.map((f) => `<tr class="${f.verdict.replace(/ /g, '-')}"><td>${esc(f.figure)}</td><td>${esc(f.a)}</td><td>${esc(f.b)}</td><td>${f.verdict}</td><td>${esc(f.note ?? '')}</td></tr>`);
  return `<!doctype html><meta charset="utf-8"><title>vvision compare</title>
<style>body{font-family:sans-serif}td,th{padding:2px 8px;border-bottom:1px solid #ddd}.equal td:nth-child(4){color:#070}.differs td:nth-child(4){color:#b00}</style>
<h1>vvision compare</h1><p>A: ${esc(c.a)}<br>B: ${esc(c.b)}</p>
<table><tr><th>figure</th><th>A</th><th>B</th><th>verdict</th><th>note</th></tr>${rows.join('\n')}</table>\n`;
}
