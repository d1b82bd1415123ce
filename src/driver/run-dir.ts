/**
 * The on-disk form of an instrumented run, so `vvision report <run-dir>` can redo the analytics
 * and the report from the saved dumps without simulating again:
 *
 *   run.json                      what ran (workload, parameters, modes) + simulator-side figures
 *   runs/<mode>/dump.bin          the raw instrumentation buffer (Fig. 6 layout), words written only
 *   runs/<mode>/metadata.json     its static metadata (written beside the dump, never into it)
 *   image.png, heatmap.png        the rendered frame, the per-pixel work heatmap (trace)
 *   *.csv, summary.json           V-Vision's data files
 *   annotated/<shader>.glsl       the Fig. 7 inline-annotated source of every shader (simt), and
 *   annotated/<shader>+<inc>.glsl of every #included file in which that shader ran code
 */
import { readFileSync, existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseMetadata } from '../analytics/metadata-reader.js';
import {
  annotatedFiles, annotateSource, DumpFormatError, simtEfficiency, heatmapPng, InstrumentationBufferTooSmallError, readSavedDump, simtLineData, vvisionDataFiles, type Dump, type VVisionResults,
  type WorkHeatmap,
} from '../analytics/index.js';
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import { NAME_PATTERN } from '../primitives/buffer-layout.js';
import { BUILTIN_UTILITIES } from '../utilities/builtin.js';
import type { Utility } from '../utilities/utility.js';
import { utilitySource } from '../utilities/utility-error.js';
import type { ReportUtilityPage } from '../report/utility-page.js';
import { portableManifestPath, portablePath } from '../report/portable-path.js';
import { portableMetadata } from './portable-metadata.js';
import { imageToPng } from '../sim/host/image-png.js';
import { analyseDumps, type AnalysedDumps, type ModeDump } from './analyse-dumps.js';
import type { FidelityCheck } from './fidelity-check.js';
import type { FrameDump, InstrumentResult } from './instrument-workload.js';
import { timingHeadline, type ReportFrameFigures, type ReportModeFigures, type ReportTimingBaseline } from '../report/report-input.js';

export interface FileWriter {
  write(name: string, data: string | Uint8Array): void;
  /**
   * The absolute directory the files end up in, when known: paths to files outside it (a user
   * utility's .ts) are recorded relative to it. Unknown: they are recorded by base name.
   */
  readonly dir?: string;
}

export class RunDirError extends Error {}

/** Simulator-side figures of one utility's run (the report's own type: run.json is report input). */
export type ModeRecord = ReportModeFigures;

/** run.json */
export interface RunRecord {
  format: 'vvision-run';
  version: 1;
  workload: string;
  /**
   * The manifest as its folder and file (`tri/workload.json`, portableManifestPath), never the
   * writing machine's absolute path (run directories written before said it so; readers accept both).
   */
  manifest: string;
  params: { width: number; height: number; spp: number; bounces: number; seed: number; frames?: number };
  modes: ModeRecord[];
  fidelity?: FidelityCheck;
  analyticsMs: number;
  /** With `--config`: the uninstrumented run on the timing model (each mode has its overheadCycles). */
  uninstrumented?: ReportTimingBaseline;
  /**
   * A run on a real Vulkan device (`vvision device`): which one, and the median trace dispatch time.
   * Its modes' simulator figures (warpInsts, threadInsts, simtEfficiency, rays) are 0: not measured.
   */
  device?: { name: string; driver: string; subgroupSize: number; medianTraceMs: number };
}

/** What reports are made from: the record, the analyses and the saved artefacts' names. */
export interface RunData {
  record: RunRecord;
  results: VVisionResults;
  heatmap?: WorkHeatmap;
  metadata: Partial<Record<string, InstrumentationMetadata>>;
  /** One report page per user utility. */
  utilityPages?: ReportUtilityPage[];
  /** Shader name -> annotated source text. */
  annotated: Record<string, string>;
  hasImage: boolean;
  /**
   * The manifest's absolute folder, for a run made in this process: `metadata` and `results`
   * then hold the compiler's absolute paths, which outputs name relative to it. Absent for a run
   * read back from disk, whose metadata.json already names files so.
   */
  manifestDir?: string;
}

/** `runDir`: where run.json will be (see FileWriter.dir). */
export function runRecord(r: InstrumentResult, runDir?: string): RunRecord {
  const first = r.runs[0]!;
  const record: RunRecord = {
    format: 'vvision-run',
    version: 1,
    workload: r.workload,
    manifest: portableManifestPath(first.prepared.manifest.path),
    params: first.prepared.params,
    modes: r.runs.map((m) => {
      const rec: ModeRecord = {
        mode: m.mode,
        bufferWords: m.bufferWords,
        simulateMs: Math.round(m.simulateMs),
        warpInsts: m.counters.warpInsts,
        threadInsts: m.counters.threadInsts,
        simtEfficiency: m.counters.warpInsts === 0 ? 0 : m.counters.activeLanes / (32 * m.counters.warpInsts),
        rays: m.rt.rays,
      };
      if (m.rerunFrom !== undefined) rec.rerunFrom = m.rerunFrom;
      if (m.frames) {
        rec.analysedFrame = m.analysedFrame!;
        rec.perFrame = m.frames.map((f) => frameFigures(f, m.metadata));
      }
      const file = utilitySource(m.utility);
      if (file !== undefined) rec.utilityFile = recordedUtilityFile(file, runDir);
      if (m.timing) {
        rec.timing = timingHeadline(m.timing.values);
        if (r.timing) rec.overheadCycles = (m.timing.values.gpu_sim_cycle ?? 0) - (r.timing.baseline.values.gpu_sim_cycle ?? 0);
      }
      return rec;
    }),
    analyticsMs: Math.round(r.analyticsMs),
  };
  if (r.fidelity) record.fidelity = r.fidelity;
  if (r.timing) record.uninstrumented = { config: r.timing.config, timing: timingHeadline(r.timing.baseline.values) };
  return record;
}

/**
 * A user utility's file as run.json records it: relative to the run directory (so `vvision report`
 * finds it while the two stay where they are), or its base name when the directory is not known or
 * the two share no folder but the root (a relative path would then spell the absolute one out).
 */
export function recordedUtilityFile(file: string, runDir: string | undefined): string {
  if (runDir === undefined) return basename(file);
  const rel = relative(runDir, resolve(file)).split(sep);
  const ups = rel.filter((p) => p === '..').length;
  const depth = resolve(runDir).split(sep).filter((p) => p !== '').length;
  return ups >= depth || isAbsolute(rel.join(sep)) ? basename(file) : rel.join('/');
}

/** A recorded utility file as a path to load: relative ones are relative to the run directory. */
export function recordedUtilityPath(file: string, runDir: string): string {
  return resolve(runDir, file);
}

/** The folder outputs name a run's shader files relative to (RunData.manifestDir, else the recorded manifest's). */
export function namingDir(data: Pick<RunData, 'record' | 'manifestDir'>): string {
  return data.manifestDir ?? dirname(data.record.manifest);
}

/**
 * The V-Vision data files of a run, shader files named relative to the manifest's folder
 * (`manifestDir`: absolute, for a run made in this process; a run read back names them so already).
 */
export function runDataFiles(results: VVisionResults, manifestDir: string): Record<string, string> {
  return vvisionDataFiles(results, (file) => portablePath(file, manifestDir));
}

export function annotatedSources(results: VVisionResults, meta: InstrumentationMetadata | undefined, withIncludes = false): Record<string, string> {
  const out: Record<string, string> = {};
  if (!results.simt || !meta) return out;
  for (const f of annotatedFiles(results.simt, meta)) {
    if (f.included && !withIncludes) continue;
    out[f.name] = annotateSource(f.text, simtLineData(results.simt, meta, f.shader, f.path));
  }
  return out;
}

/** A frame's headline figures; SIMT efficiency from its dump when the utility records block executions. */
export function frameFigures(f: FrameDump, meta: InstrumentationMetadata): ReportFrameFigures {
  const out: ReportFrameFigures = {
    frame: f.frame,
    warpInsts: f.counters.warpInsts,
    threadInsts: f.counters.threadInsts,
    simtEfficiency: f.counters.warpInsts === 0 ? 0 : f.counters.activeLanes / (32 * f.counters.warpInsts),
    rays: f.rt.rays,
    dumpWords: f.dump.wordsWritten,
  };
  if (meta.sites.some((s) => s.kind === 'block' || s.kind === 'shaderEntry')) out.dumpSimtEfficiency = simtEfficiency(f.dump, meta).overall.efficiency;
  if (f.timing) out.cycles = f.timing.values.gpu_sim_cycle ?? 0;
  return out;
}

/** Writes everything but the HTML report; returns the data the report is made from. */
export function saveInstrumentRun(w: FileWriter, r: InstrumentResult, opts: { keepAlpha?: boolean } = {}): RunData {
  const record = runRecord(r, w.dir);
  const manifestDir = dirname(r.runs[0]!.prepared.manifest.path);
  w.write('run.json', `${JSON.stringify(record, null, 2)}\n`);
  const metadata: RunData['metadata'] = {};
  for (const m of r.runs) {
    w.write(`runs/${m.mode}/dump.bin`, m.dumpBytes);
    // Multi-frame runs: every frame's dump (dump.bin is the analysed frame's).
    for (const f of m.frames ?? []) w.write(`runs/${m.mode}/frames/frame-${String(f.frame).padStart(3, '0')}.bin`, f.dumpBytes);
    w.write(`runs/${m.mode}/metadata.json`, JSON.stringify(portableMetadata(m.metadata, manifestDir)));
    metadata[m.mode] = m.metadata;
  }
  const image = r.runs[0]!.prepared.host.output;
  if (image) w.write('image.png', imageToPng(image, opts));
  if (r.heatmap) w.write('heatmap.png', heatmapPng(r.heatmap));
  for (const [name, text] of Object.entries(runDataFiles(r.results, manifestDir))) w.write(name, text);
  const annotated = annotatedSources(r.results, metadata.simt, true);
  for (const [name, text] of Object.entries(annotated)) w.write(`annotated/${name}.glsl`, text);
  const data: RunData = { record, results: r.results, metadata, annotated, hasImage: image !== undefined, manifestDir };
  if (r.heatmap) data.heatmap = r.heatmap;
  const pages = utilityPages(r.analyses);
  if (pages.length > 0) data.utilityPages = pages;
  return data;
}

/** Report pages of the user utilities among `analyses` (built-ins have their dedicated pages). */
export function utilityPages(analyses: AnalysedDumps['analyses']): ReportUtilityPage[] {
  return analyses
    .filter(({ utility }) => (BUILTIN_UTILITIES as Record<string, Utility | undefined>)[utility.name] !== utility)
    .map(({ utility, analysis }) => {
      const page: ReportUtilityPage = { name: utility.name, description: utility.description };
      for (const k of ['summary', 'tables', 'charts', 'images', 'data'] as const) if (analysis[k] !== undefined) (page as unknown as Record<string, unknown>)[k] = analysis[k];
      return page;
    });
}

/** Finds the utility of a saved run's mode: a built-in, one given by the caller, or the recorded file. */
export type UtilityResolver = (name: string, recordedFile: string | undefined) => Utility;

/**
 * Reads a saved run back and redoes the analytics from its dumps. Runs of user utilities need
 * `resolve` (the CLI loads the recorded .ts file, or the one given with --utility).
 */
export function loadRunDir(dir: string, resolve?: UtilityResolver): RunData {
  const recordPath = join(dir, 'run.json');
  if (!existsSync(recordPath)) throw new RunDirError(`${dir}: not a vvision run directory (no run.json)`);
  let record: RunRecord;
  try {
    record = JSON.parse(readFileSync(recordPath, 'utf8')) as RunRecord;
  } catch (e) {
    throw new RunDirError(`${recordPath}: not valid JSON: ${(e as Error).message}`);
  }
  if (record.format !== 'vvision-run' || !Array.isArray(record.modes)) throw new RunDirError(`${recordPath}: format: expected "vvision-run"`);
  const dumps: ModeDump[] = [];
  const metadata: RunData['metadata'] = {};
  for (const m of record.modes) {
    if (typeof m.mode !== 'string' || !NAME_PATTERN.test(m.mode)) throw new RunDirError(`${recordPath}: modes: bad utility name ${JSON.stringify(m.mode)}`);
    const builtin = (BUILTIN_UTILITIES as Record<string, Utility | undefined>)[m.mode];
    let utility = builtin;
    if (!utility) {
      if (!resolve) throw new RunDirError(`${recordPath}: mode '${m.mode}' is a user utility; give its file with --utility`);
      utility = resolve(m.mode, m.utilityFile === undefined ? undefined : recordedUtilityPath(m.utilityFile, dir));
    }
    const dumpPath = join(dir, 'runs', m.mode, 'dump.bin');
    const metaPath = join(dir, 'runs', m.mode, 'metadata.json');
    for (const p of [dumpPath, metaPath]) if (!existsSync(p)) throw new RunDirError(`${p}: missing`);
    const meta = parseMetadata(readFileSync(metaPath, 'utf8'), metaPath);
    const bytes = new Uint8Array(readFileSync(dumpPath));
    let dump: Dump;
    try {
      dump = readSavedDump(bytes, meta, m.bufferWords);
    } catch (e) {
      if (e instanceof InstrumentationBufferTooSmallError) throw new RunDirError(`${dumpPath}: ${e.message}`);
      if (e instanceof DumpFormatError) throw new RunDirError(`${dumpPath} is corrupt: ${e.message}`);
      throw e;
    }
    dumps.push({ mode: m.mode, dump, metadata: meta, utility });
    metadata[m.mode] = meta;
  }
  const { results, heatmap, analyses } = analyseDumps(record.workload, dumps, record.params);
  const data: RunData = {
    record, results, metadata, annotated: annotatedSources(results, metadata.simt, true), hasImage: existsSync(join(dir, 'image.png')),
  };
  if (heatmap) data.heatmap = heatmap;
  const pages = utilityPages(analyses);
  if (pages.length > 0) data.utilityPages = pages;
  return data;
}
