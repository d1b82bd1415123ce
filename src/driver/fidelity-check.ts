/**
 * The built-in fidelity check of the `simt` utility: what the instrumentation measured (the dump,
 * through the analytics) must equal what the simulator itself counted for the same run.
 *
 * For every block-entry site, the dump's active-lane histogram (WarpUpdate(ballot) entries) is
 * compared with the functional core's own histogram of entries into that block (by the warp
 * splits of its SIMT stack). The instrumentation splits blocks after their entry, so the original
 * block id still names the block's entry in the instrumented, linked module. SIMT efficiency is
 * then computed both ways with the same weights (each block's original instruction count).
 */
import type { SimtEfficiency } from '../analytics/simt-efficiency.js';
import type { BlockId } from '../ir/inst.js';
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { LinkedPipeline } from '../passes/lower/rt-pipeline.js';
import type { Counters } from '../sim/functional/counters.js';
import type { Program } from '../sim/functional/program.js';

export interface FidelityMismatch {
  site: number;
  shader: string;
  function: string;
  block: number;
  dump: number[];
  simulator: number[];
}

export interface FidelityCheck {
  /** SIMT efficiency over instrumented blocks, from the instrumentation dump. */
  fromDump: number;
  /** The same quantity from the simulator's own active-lane counters. */
  fromSimulator: number;
  sitesCompared: number;
  mismatches: FidelityMismatch[];
  holds: boolean;
}

export function fidelityCheck(
  simt: SimtEfficiency, meta: InstrumentationMetadata, linked: LinkedPipeline, program: Program, counters: Counters,
): FidelityCheck {
  const globalIndex = new Map<BlockId, number>();
  for (const f of program.functions) for (const b of f.blocks) globalIndex.set(b.id, b.globalIndex);
  const w = meta.warpSize;
  let dumpActive = 0;
  let dumpSlots = 0;
  let simActive = 0;
  let simSlots = 0;
  const mismatches: FidelityMismatch[] = [];
  for (const s of simt.perSite) {
    const site = meta.sites[s.site]!;
    const shader = meta.shaders[site.shader]!;
    const copies = new Set<number>();
    for (const ls of linked.shaders) {
      if (ls.path !== shader.sourcePath || ls.stage !== shader.stage) continue;
      const idx = globalIndex.get(ls.block(site.block as BlockId));
      if (idx !== undefined) copies.add(idx);
    }
    const simHist = new Array<number>(w + 1).fill(0);
    for (const idx of copies) {
      const h = counters.blockHistogram[idx];
      if (h) for (let n = 0; n <= w; n++) simHist[n]! += h[n] ?? 0;
    }
    const n = site.blockInstCount;
    for (let k = 0; k <= w; k++) {
      dumpActive += (s.histogram[k] ?? 0) * k * n;
      dumpSlots += (s.histogram[k] ?? 0) * w * n;
      simActive += simHist[k]! * k * n;
      simSlots += simHist[k]! * w * n;
    }
    if (simHist.some((v, k) => v !== (s.histogram[k] ?? 0))) {
      mismatches.push({ site: s.site, shader: shader.name, function: site.function, block: site.block, dump: s.histogram, simulator: simHist });
    }
  }
  const fromDump = dumpSlots === 0 ? 0 : dumpActive / dumpSlots;
  const fromSimulator = simSlots === 0 ? 0 : simActive / simSlots;
  return { fromDump, fromSimulator, sitesCompared: simt.perSite.length, mismatches, holds: mismatches.length === 0 && fromDump === fromSimulator };
}
