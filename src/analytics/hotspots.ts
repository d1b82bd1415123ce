/**
 * Hotspots (paper 003, Sec. V-D3, Fig. 15) and dynamic opcode counts from block ballots
 * (--mode simt or divergence): each warp-level execution of a block adds its active thread count
 * to every original instruction of the block. Rows are normalised to the maximum over the whole
 * pipeline, so shaders compare on one scale.
 *
 * Each row names the file its line is in (#included code keeps its own file and line numbers).
 *
 * Invariant: one row per original instruction of every instrumented block, in shader / function /
 * block layout order; `normalized = threadCount / max(threadCount)` (0 when nothing ran).
 */
import { ENTRY_PAYLOAD, shaderFilePath, type BlockMetadata, type InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';
import { isBlockExecution, popcount32, requireSites, siteTable } from './site-table.js';

export interface HotspotRow {
  shader: number;
  shaderName: string;
  function: string;
  block: number;
  /** Index of the instruction inside its original block. */
  index: number;
  opcode: string;
  /** Source file of the instruction: the shader's own file or the #included file it came from. */
  file: string;
  line: number;
  /** Dynamic thread-level executions. */
  threadCount: number;
  /** Dynamic warp-level executions. */
  warpCount: number;
  normalized: number;
}

export interface Hotspots {
  rows: HotspotRow[];
  maxThreadCount: number;
  perShader: { shader: number; name: string; threadInstructions: number; warpInstructions: number }[];
}

export interface OpcodeCount {
  opcode: string;
  threadCount: number;
  warpCount: number;
}

interface BlockTotals {
  warp: Float64Array;
  thread: Float64Array;
}

function blockTotals(dump: Dump, meta: InstrumentationMetadata): BlockTotals {
  requireSites(meta, 'hotspots', ['block', 'shaderEntry'], 'simt');
  const table = siteTable(meta);
  const warp = new Float64Array(meta.sites.length);
  const thread = new Float64Array(meta.sites.length);
  const { words, entryOffsets, entrySite, entryCount } = dump;
  for (let k = 0; k < entryCount; k++) {
    const s = entrySite[k]!;
    if (!isBlockExecution(table.kind[s]!)) continue;
    warp[s]!++;
    thread[s]! += popcount32(words[entryOffsets[k]! + ENTRY_PAYLOAD]!);
  }
  return { warp, thread };
}

/** (shader, function, block) -> original block metadata. */
function blockLookup(meta: InstrumentationMetadata): (shader: number, fn: string, block: number) => BlockMetadata | undefined {
  const map = new Map<string, BlockMetadata>();
  for (const sh of meta.shaders) for (const f of sh.cfg) for (const b of f.blocks) map.set(`${sh.index}|${f.name}|${b.id}`, b);
  return (shader, fn, block) => map.get(`${shader}|${fn}|${block}`);
}

export function hotspots(dump: Dump, meta: InstrumentationMetadata): Hotspots {
  const totals = blockTotals(dump, meta);
  const lookup = blockLookup(meta);
  const rows: HotspotRow[] = [];
  const perShader = meta.shaders.map((sh) => ({ shader: sh.index, name: sh.name, threadInstructions: 0, warpInstructions: 0 }));
  let max = 0;
  for (const site of meta.sites) {
    if (site.kind !== 'block' && site.kind !== 'shaderEntry') continue;
    const block = lookup(site.shader, site.function, site.block);
    if (!block) continue;
    const threadCount = totals.thread[site.id]!;
    const warpCount = totals.warp[site.id]!;
    if (threadCount > max) max = threadCount;
    perShader[site.shader]!.threadInstructions += threadCount * block.opcodes.length;
    perShader[site.shader]!.warpInstructions += warpCount * block.opcodes.length;
    const shader = meta.shaders[site.shader]!;
    block.opcodes.forEach((opcode, index) => {
      rows.push({
        shader: site.shader,
        shaderName: meta.shaders[site.shader]!.name,
        function: site.function,
        block: site.block,
        index,
        opcode,
        file: shaderFilePath(shader, block.files?.[index] ?? 0),
        line: block.lines[index] ?? 0,
        threadCount,
        warpCount,
        normalized: 0,
      });
    });
  }
  for (const r of rows) r.normalized = max === 0 ? 0 : r.threadCount / max;
  return { rows, maxThreadCount: max, perShader };
}

/** Dynamic opcode counts, most executed (thread-level) first; ties by opcode name. */
export function opcodeCounts(dump: Dump, meta: InstrumentationMetadata): OpcodeCount[] {
  const totals = blockTotals(dump, meta);
  const lookup = blockLookup(meta);
  const counts = new Map<string, OpcodeCount>();
  for (const site of meta.sites) {
    if (site.kind !== 'block' && site.kind !== 'shaderEntry') continue;
    const block = lookup(site.shader, site.function, site.block);
    if (!block) continue;
    for (const opcode of block.opcodes) {
      let c = counts.get(opcode);
      if (!c) counts.set(opcode, (c = { opcode, threadCount: 0, warpCount: 0 }));
      c.threadCount += totals.thread[site.id]!;
      c.warpCount += totals.warp[site.id]!;
    }
  }
  return [...counts.values()].sort((a, b) => b.threadCount - a.threadCount || (a.opcode < b.opcode ? -1 : 1));
}
