import test from 'ava';
import { frameCharts } from '../../src/report/frame-charts.js';
import type { ReportModeFigures } from '../../src/report/report-input.js';

const mode = (perFrame: ReportModeFigures['perFrame']): ReportModeFigures => ({
  mode: 'simt', bufferWords: 1024, simulateMs: 0, warpInsts: 0, threadInsts: 0, simtEfficiency: 0, rays: 0, perFrame,
});

test('frame charts of a simulator run: simulator counters, dump words', (t) => {
  const ids = frameCharts([mode([
    { frame: 0, warpInsts: 10, threadInsts: 200, simtEfficiency: 0.6, rays: 5, dumpWords: 30, dumpSimtEfficiency: 0.6 },
    { frame: 1, warpInsts: 11, threadInsts: 210, simtEfficiency: 0.7, rays: 6, dumpWords: 33, dumpSimtEfficiency: 0.7 },
  ])]).map((c) => c.id);
  t.deepEqual(ids, ['frames-simt-efficiency', 'frames-rays', 'frames-instructions', 'frames-dump-words']);
});

test('frame charts of a device run: no simulator counters (not measured there), the dump\'s SIMT efficiency, words and trace times', (t) => {
  const charts = frameCharts([mode([
    { frame: 1, warpInsts: 0, threadInsts: 0, simtEfficiency: 0, rays: 0, dumpWords: 30, dumpSimtEfficiency: 0.5, deviceTraceMs: 0.2 },
    { frame: 2, warpInsts: 0, threadInsts: 0, simtEfficiency: 0, rays: 0, dumpWords: 31, dumpSimtEfficiency: 0.25, deviceTraceMs: 0.3 },
  ])]);
  t.deepEqual(charts.map((c) => c.id), ['frames-simt-efficiency', 'frames-dump-words', 'frames-device-ms']);
  t.notRegex(JSON.stringify(charts), /simulator/);
});
