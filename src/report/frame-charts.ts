/**
 * Multi-frame runs (issue 24): the report's per-frame series — SIMT efficiency, rays, thread
 * instructions, instrumentation words and (on the timing model) cycles, frame by frame — from the
 * per-frame figures each utility's run recorded (run.json `modes[].perFrame`).
 */
import type { ChartSpec } from './chart-specs.js';
import type { ReportModeFigures } from './report-input.js';

const COLOURS = ['#3b6fb6', '#e07b39', '#4a9a5b', '#c94c4c', '#8a5fb5', '#9aa3ad'];

function lineChart(id: string, title: string, caption: string, yTitle: string, frames: number[], series: { label: string; data: number[] }[]): ChartSpec {
  return {
    id, title, caption,
    config: {
      type: 'line',
      data: { labels: frames, datasets: series.map((s, i) => ({ label: s.label, data: s.data, borderColor: COLOURS[i % COLOURS.length]!, backgroundColor: COLOURS[i % COLOURS.length]! })) },
      options: { plugins: { legend: { display: true, position: 'bottom' } }, scales: { x: { title: { display: true, text: 'frame' } }, y: { beginAtZero: true, title: { display: true, text: yTitle } } } },
    },
  };
}

/** The per-frame charts, or none when the run had one frame. */
export function frameCharts(modes: readonly ReportModeFigures[]): ChartSpec[] {
  const withFrames = modes.filter((m) => m.perFrame && m.perFrame.length > 1);
  if (withFrames.length === 0) return [];
  const frames = withFrames[0]!.perFrame!.map((f) => f.frame);
  const pct = (x: number) => Math.round(10000 * x) / 100;
  if (withFrames.every((m) => m.perFrame!.every((f) => f.deviceTraceMs !== undefined))) return deviceFrameCharts(withFrames, frames, pct);
  const charts = [
    lineChart('frames-simt-efficiency', 'SIMT efficiency per frame', 'Active lanes per issued instruction slot in each frame, as the simulator counts it for each utility\'s instrumented run, and as the dump measures it per block execution where the utility records blocks.', 'SIMT efficiency (%)', frames, [
      ...withFrames.map((m) => ({ label: `${m.mode} (simulator)`, data: m.perFrame!.map((f) => pct(f.simtEfficiency)) })),
      ...withFrames.filter((m) => m.perFrame!.some((f) => f.dumpSimtEfficiency !== undefined))
        .map((m) => ({ label: `${m.mode} (dump, per block)`, data: m.perFrame!.map((f) => pct(f.dumpSimtEfficiency ?? 0)) })),
    ]),
    lineChart('frames-rays', 'Rays per frame', 'traceRay calls each frame made (the same in every utility\'s run: instrumentation does not change what the shaders trace).', 'rays', frames,
      [{ label: 'rays', data: withFrames[0]!.perFrame!.map((f) => f.rays) }]),
    lineChart('frames-instructions', 'Thread instructions per frame', 'Instructions executed per frame, instrumentation included, per utility.', 'thread instructions', frames,
      withFrames.map((m) => ({ label: m.mode, data: m.perFrame!.map((f) => f.threadInsts) }))),
    lineChart('frames-dump-words', 'Instrumentation words per frame', 'Entry words each frame wrote to the instrumentation buffer (the buffer is emptied between frames).', 'words', frames,
      withFrames.map((m) => ({ label: m.mode, data: m.perFrame!.map((f) => f.dumpWords) }))),
  ];
  if (withFrames.some((m) => m.perFrame!.some((f) => f.cycles !== undefined))) {
    charts.push(lineChart('frames-cycles', 'Cycles per frame (timing model)', 'Simulated cycles of each frame\'s launch; launches run back to back with the caches warm unless gpgpu_flush_l1_cache / gpgpu_flush_l2_cache flush them.', 'cycles', frames,
      withFrames.map((m) => ({ label: m.mode, data: m.perFrame!.map((f) => f.cycles ?? 0) }))));
  }
  return charts;
}

/** A device run's frames: what the dumps measure and the device's trace times (no simulator counters). */
function deviceFrameCharts(withFrames: readonly ReportModeFigures[], frames: number[], pct: (x: number) => number): ChartSpec[] {
  const charts: ChartSpec[] = [];
  const blocks = withFrames.filter((m) => m.perFrame!.some((f) => f.dumpSimtEfficiency !== undefined));
  if (blocks.length > 0) {
    charts.push(lineChart('frames-simt-efficiency', 'SIMT efficiency per frame (device)', 'Active lanes per block execution in each frame, as the device\'s dump measures it (warps of the device\'s subgroup size).', 'SIMT efficiency (%)', frames,
      blocks.map((m) => ({ label: `${m.mode} (dump, per block)`, data: m.perFrame!.map((f) => pct(f.dumpSimtEfficiency ?? 0)) }))));
  }
  charts.push(
    lineChart('frames-dump-words', 'Instrumentation words per frame', 'Entry words each frame wrote to the instrumentation buffer (read back and emptied after every frame).', 'words', frames,
      withFrames.map((m) => ({ label: m.mode, data: m.perFrame!.map((f) => f.dumpWords) }))),
    lineChart('frames-device-ms', 'Trace dispatch time per frame (device)', 'vkCmdWriteTimestamp around each frame\'s vkCmdTraceRaysKHR, instrumented, per utility.', 'ms', frames,
      withFrames.map((m) => ({ label: m.mode, data: m.perFrame!.map((f) => f.deviceTraceMs ?? 0) }))),
  );
  return charts;
}
