/**
 * The run directory of a device run: the simulator's layout (src/driver/run-dir.ts), so `report`,
 * `annotate`, `compare` and the SDK read it unchanged —
 *   image.png, runs/<mode>/dump.bin + metadata.json, data files, annotated/, run.json —
 * plus device.json (the device, subgroup size, validation messages) and stats.json, whose
 * `device_trace_ms` (median trace dispatch, vkCmdWriteTimestamp) stands where the simulator's
 * stats put cycles. run.json records `device`; its modes' simulator counters are 0 (not measured).
 * Multi-frame runs add what the simulator's do: frames/frame-NNN.png, runs/<mode>/frames/frame-NNN.bin
 * and stats.json `per_frame` (each frame's trace time; the top-level time is the median over frames).
 */
import { analyseDumps } from '../driver/analyse-dumps.js';
import { dirname } from 'node:path';
import { portableMetadata } from '../driver/portable-metadata.js';
import { portableManifestPath } from '../report/portable-path.js';
import { annotatedSources, recordedUtilityFile, runDataFiles, utilityPages, type FileWriter, type RunData, type RunRecord } from '../driver/run-dir.js';
import { imageToPng } from '../sim/host/image-png.js';
import { utilitySource } from '../utilities/utility-error.js';
import type { Utility } from '../utilities/utility.js';
import type { DeviceFrame, DeviceLaunch } from './device-run.js';
import { heatmapPng, simtEfficiency } from '../analytics/index.js';
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { ReportFrameFigures } from '../report/report-input.js';

/** stats.json of a device run. */
export function deviceStats(l: DeviceLaunch): Record<string, unknown> {
  const [w, h] = l.prepared.host.launch;
  return {
    device: l.info.device, driver: `${l.info.driver} ${l.info.driverInfo}`, width: w, height: h,
    subgroup_size: l.info.ranSubgroupSize, device_trace_ms: l.info.medianTraceMs, device_trace_ms_each: l.info.traceMs,
    ...(l.frames ? { frames: l.frames.length, per_frame: l.frames.map((f) => ({ frame: f.frame, device_trace_ms: f.traceMs })) } : {}),
    ...(l.firstFrame ? { first_frame: l.firstFrame } : {}),
  };
}

/** A device frame's figures for the report's frames page: what its dump measures and its trace time. */
function deviceFrameFigures(f: DeviceFrame, meta: InstrumentationMetadata): ReportFrameFigures {
  const out: ReportFrameFigures = { frame: f.frame, warpInsts: 0, threadInsts: 0, simtEfficiency: 0, rays: 0, dumpWords: f.dump!.wordsWritten, deviceTraceMs: f.traceMs };
  if (meta.sites.some((s) => s.kind === 'block' || s.kind === 'shaderEntry')) out.dumpSimtEfficiency = simtEfficiency(f.dump!, { ...meta }).overall.efficiency;
  return out;
}

const frameName = (f: number) => `frame-${String(f).padStart(3, '0')}`;

/** Writes an uninstrumented device run: image.png, stats.json, device.json. */
export function saveDeviceRun(w: FileWriter, l: DeviceLaunch, opts: { keepAlpha?: boolean } = {}): void {
  if (l.image) w.write('image.png', imageToPng(l.image, opts));
  for (const f of l.frames ?? []) if (f.image) w.write(`frames/${frameName(f.frame)}.png`, imageToPng(f.image, opts));
  w.write('stats.json', `${JSON.stringify(deviceStats(l), null, 2)}\n`);
  w.write('device.json', `${JSON.stringify(l.info, null, 2)}\n`);
}

/** Writes an instrumented device run (one launch per utility) and returns what the report is made from. */
export function saveDeviceInstrumentRun(
  w: FileWriter, launches: readonly { utility: Utility; launch: DeviceLaunch }[], opts: { keepAlpha?: boolean } = {},
): RunData {
  const first = launches[0]!.launch;
  const t0 = performance.now();
  const { results, heatmap, analyses } = analyseDumps(
    first.prepared.manifest.name, launches.map(({ utility, launch }) => ({ mode: utility.name, dump: launch.dump!, metadata: launch.metadata!, utility })),
    first.prepared.params,
  );
  const record: RunRecord = {
    format: 'vvision-run', version: 1, workload: first.prepared.manifest.name, manifest: portableManifestPath(first.prepared.manifest.path), params: first.prepared.params,
    modes: launches.map(({ utility, launch }) => {
      const m: RunRecord['modes'][number] = {
        mode: utility.name, bufferWords: launch.bufferWords!, simulateMs: launch.info.medianTraceMs, warpInsts: 0, threadInsts: 0, simtEfficiency: 0, rays: 0,
      };
      if (launch.rerunFrom !== undefined) m.rerunFrom = launch.rerunFrom;
      if (launch.frames) {
        m.analysedFrame = launch.analysedFrame ?? launch.frames[launch.frames.length - 1]!.frame;
        m.perFrame = launch.frames.map((f) => deviceFrameFigures(f, launch.metadata!));
      }
      const file = utilitySource(utility);
      if (file !== undefined) m.utilityFile = recordedUtilityFile(file, w.dir);
      return m;
    }),
    analyticsMs: Math.round(performance.now() - t0),
    device: { name: first.info.device, driver: `${first.info.driver} ${first.info.driverInfo}`, subgroupSize: first.info.ranSubgroupSize, medianTraceMs: first.info.medianTraceMs },
  };
  w.write('run.json', `${JSON.stringify(record, null, 2)}\n`);
  const manifestDir = dirname(first.prepared.manifest.path);
  const metadata: RunData['metadata'] = {};
  for (const { utility, launch } of launches) {
    w.write(`runs/${utility.name}/dump.bin`, launch.dumpBytes!);
    for (const f of launch.frames ?? []) w.write(`runs/${utility.name}/frames/${frameName(f.frame)}.bin`, f.dumpBytes!);
    w.write(`runs/${utility.name}/metadata.json`, JSON.stringify(portableMetadata(launch.metadata!, manifestDir)));
    metadata[utility.name] = launch.metadata!;
  }
  saveDeviceRun(w, first, opts);
  if (heatmap) w.write('heatmap.png', heatmapPng(heatmap));
  for (const [name, text] of Object.entries(runDataFiles(results, manifestDir))) w.write(name, text);
  const annotated = annotatedSources(results, metadata.simt, true);
  for (const [name, text] of Object.entries(annotated)) w.write(`annotated/${name}.glsl`, text);
  const data: RunData = { record, results, metadata, annotated, hasImage: first.image !== undefined, manifestDir };
  if (heatmap) data.heatmap = heatmap;
  const pages = utilityPages(analyses);
  if (pages.length > 0) data.utilityPages = pages;
  return data;
}
