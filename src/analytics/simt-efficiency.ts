/**
 * SIMT efficiency (paper 003, Fig. 12): the percentage of active threads across all basic-block
 * executions, per shader, per pipeline invocation and overall; plus the active-thread histogram of
 * every instrumentation site (Fig. 7 `histo=32:22072`). Input: a dump with block / shaderEntry
 * sites (WarpUpdate(subgroupBallot(true)) at every block entry: --mode simt or divergence).
 *
 * Definitions (warp size W from the metadata):
 * - efficiency = sum(active lanes) / (W * block executions)       (the paper's definition)
 * - instructionEfficiency = sum(active lanes * block insts) / (W * sum(block insts)), i.e. the
 *   thread-instruction utilisation a simulator's active-lane counters measure.
 * Invariant: `histogram[a]` counts executions with exactly `a` active lanes; sum = executions.
 */
import { ENTRY_PAYLOAD, type InstrumentationMetadata, type ShaderStage } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';
import { isBlockExecution, popcount32, requireSites, siteTable } from './site-table.js';

export interface SimtTotals {
  /** Warp-level basic-block executions. */
  warpExecutions: number;
  activeThreads: number;
  efficiency: number;
  /** Warp-level instructions issued (block executions x original block size). */
  warpInstructions: number;
  threadInstructions: number;
  instructionEfficiency: number;
}

export interface SimtSiteStats {
  site: number;
  executions: number;
  activeThreads: number;
  /** Index = active lane count (0..warpSize). */
  histogram: number[];
}

export interface SimtShaderStats extends SimtTotals {
  shader: number;
  name: string;
  stage: ShaderStage;
}

export interface SimtEfficiency {
  warpSize: number;
  overall: SimtTotals;
  perShader: SimtShaderStats[];
  /** Only block-execution sites, in inst id order. */
  perSite: SimtSiteStats[];
}

function totals(warpExecutions: number, activeThreads: number, warpInstructions: number, threadInstructions: number, w: number): SimtTotals {
  return {
    warpExecutions,
    activeThreads,
    efficiency: warpExecutions === 0 ? 0 : activeThreads / (w * warpExecutions),
    warpInstructions,
    threadInstructions,
    instructionEfficiency: warpInstructions === 0 ? 0 : threadInstructions / (w * warpInstructions),
  };
}

export function simtEfficiency(dump: Dump, meta: InstrumentationMetadata): SimtEfficiency {
  requireSites(meta, 'SIMT efficiency', ['block', 'shaderEntry'], 'simt');
  const table = siteTable(meta);
  const w = meta.warpSize;
  const nSites = meta.sites.length;
  const hist = new Float64Array(nSites * (w + 1));
  const { words, entryOffsets, entrySite, entryCount } = dump;
  for (let k = 0; k < entryCount; k++) {
    const s = entrySite[k]!;
    if (!isBlockExecution(table.kind[s]!)) continue;
    const active = popcount32(words[entryOffsets[k]! + ENTRY_PAYLOAD]!);
    hist[s * (w + 1) + active]!++;
  }
  return fromHistograms(hist, meta);
}

/**
 * Several launches' SIMT efficiency as one (the frames of a multi-frame run): per-site histograms
 * added, totals recomputed. Exact: every figure is a count over block executions.
 */
export function sumSimtEfficiency(parts: readonly SimtEfficiency[], meta: InstrumentationMetadata): SimtEfficiency {
  const w = meta.warpSize;
  const hist = new Float64Array(meta.sites.length * (w + 1));
  for (const p of parts) for (const site of p.perSite) site.histogram.forEach((n, a) => (hist[site.site * (w + 1) + a]! += n));
  return fromHistograms(hist, meta);
}

/** Per-site active-lane histograms (`hist[site * (W + 1) + active]`) -> the per-site, per-shader and overall figures. */
function fromHistograms(hist: Float64Array, meta: InstrumentationMetadata): SimtEfficiency {
  const table = siteTable(meta);
  const w = meta.warpSize;
  const nSites = meta.sites.length;
  const nShaders = meta.shaders.length;
  const shExec = new Float64Array(nShaders);
  const shActive = new Float64Array(nShaders);
  const shWarpInst = new Float64Array(nShaders);
  const shThreadInst = new Float64Array(nShaders);
  const perSite: SimtSiteStats[] = [];
  for (let s = 0; s < nSites; s++) {
    if (!isBlockExecution(table.kind[s]!)) continue;
    const histogram = Array.from(hist.subarray(s * (w + 1), (s + 1) * (w + 1)));
    let executions = 0;
    let active = 0;
    for (let a = 0; a <= w; a++) {
      executions += histogram[a]!;
      active += a * histogram[a]!;
    }
    perSite.push({ site: s, executions, activeThreads: active, histogram });
    const sh = table.shader[s]!;
    const n = table.blockInstCount[s]!;
    shExec[sh]! += executions;
    shActive[sh]! += active;
    shWarpInst[sh]! += executions * n;
    shThreadInst[sh]! += active * n;
  }
  let e = 0, a = 0, wi = 0, ti = 0;
  const perShader: SimtShaderStats[] = meta.shaders.map((sh, i) => {
    e += shExec[i]!;
    a += shActive[i]!;
    wi += shWarpInst[i]!;
    ti += shThreadInst[i]!;
    return { shader: i, name: sh.name, stage: sh.stage, ...totals(shExec[i]!, shActive[i]!, shWarpInst[i]!, shThreadInst[i]!, w) };
  });
  return { warpSize: w, overall: totals(e, a, wi, ti, w), perShader, perSite };
}

/** One pipeline invocation (vkCmdTraceRays) and its dump; all share one metadata. */
export interface PipelineRun {
  name: string;
  dump: Dump;
}

export interface SimtInvocationStats extends SimtTotals {
  invocation: string;
}

/** Fig. 12: SIMT efficiency of each pipeline invocation of a frame. */
export function simtEfficiencyByInvocation(runs: readonly PipelineRun[], meta: InstrumentationMetadata): SimtInvocationStats[] {
  return runs.map((r) => ({ invocation: r.name, ...simtEfficiency(r.dump, meta).overall }));
}

/** Fig. 7 histogram text: `32:22072` or `20:12,12:12`, most active lanes first, zero buckets omitted. */
export function formatHistogram(histogram: ArrayLike<number>): string {
  const parts: string[] = [];
  for (let a = histogram.length - 1; a >= 0; a--) {
    const c = histogram[a]!;
    if (c > 0) parts.push(`${a}:${c}`);
  }
  return parts.join(',');
}
