/**
 * Per-pixel work heatmap: basic blocks or (original) instructions each thread executed, from a
 * `--mode trace` dump, laid out on the launch grid. The thread-work id is the linearised LaunchID
 * x + y*w + z*w*h, so pixel (x, y) sums the threads of every z layer. `heatmapPng` renders it with
 * a black-red-yellow-white ramp normalised to the busiest pixel.
 */
import { PNG } from 'pngjs';
import { ENTRY_THREAD_WORK_ID, type InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';
import { AnalysisInputError, KindCode, requireSites, siteTable } from './site-table.js';

export type HeatmapUnit = 'blocks' | 'instructions';

export interface WorkHeatmap {
  width: number;
  height: number;
  unit: HeatmapUnit;
  /** values[y * width + x]. */
  values: Float64Array;
  max: number;
  total: number;
}

export function workHeatmap(
  dump: Dump,
  meta: InstrumentationMetadata,
  opts: { width: number; height: number; unit?: HeatmapUnit },
): WorkHeatmap {
  requireSites(meta, 'work heatmap', ['blockTrace'], 'trace');
  const { width, height } = opts;
  if (!(Number.isInteger(width) && width > 0 && Number.isInteger(height) && height > 0)) {
    throw new AnalysisInputError(`work heatmap needs a positive integer launch width and height, got ${width}x${height}`);
  }
  const unit = opts.unit ?? 'blocks';
  const table = siteTable(meta);
  const pixels = width * height;
  const values = new Float64Array(pixels);
  const { words, entryOffsets, entrySite, entryCount } = dump;
  let total = 0;
  for (let k = 0; k < entryCount; k++) {
    const s = entrySite[k]!;
    if (table.kind[s] !== KindCode.BlockTrace) continue;
    const twi = words[entryOffsets[k]! + ENTRY_THREAD_WORK_ID]!;
    const w = unit === 'blocks' ? 1 : table.blockInstCount[s]!;
    values[twi % pixels]! += w;
    total += w;
  }
  let max = 0;
  for (let i = 0; i < pixels; i++) if (values[i]! > max) max = values[i]!;
  return { width, height, unit, values, max, total };
}

/** Black -> red -> yellow -> white for t in [0, 1]. */
function ramp(t: number): [number, number, number] {
  const x = Math.max(0, Math.min(1, t)) * 3;
  const r = Math.min(1, x);
  const g = Math.min(1, Math.max(0, x - 1));
  const b = Math.min(1, Math.max(0, x - 2));
  return [Math.round(r * 255), Math.round(g * 255), Math.round(b * 255)];
}

export function heatmapPng(h: WorkHeatmap): Uint8Array {
  const png = new PNG({ width: h.width, height: h.height });
  for (let i = 0; i < h.width * h.height; i++) {
    const [r, g, b] = ramp(h.max === 0 ? 0 : h.values[i]! / h.max);
    png.data[i * 4] = r;
    png.data[i * 4 + 1] = g;
    png.data[i * 4 + 2] = b;
    png.data[i * 4 + 3] = 255;
  }
  return new Uint8Array(PNG.sync.write(png));
}

/** Any per-pixel values (values[y * width + x]) as the same black-red-yellow-white PNG. */
export function gridHeatmapPng(values: ArrayLike<number>, width: number, height: number): Uint8Array {
  if (values.length !== width * height) throw new AnalysisInputError(`heatmap: ${values.length} values for a ${width}x${height} grid`);
  let max = 0;
  let total = 0;
  for (let i = 0; i < values.length; i++) {
    max = Math.max(max, values[i]!);
    total += values[i]!;
  }
  return heatmapPng({ width, height, unit: 'blocks', values: Float64Array.from(values), max, total });
}
