/**
 * Divergence characterization (paper 003, Sec. V-D2, Fig. 13-14): every inactive lane of every
 * warp-level basic-block execution is an inactive instruction slot per instruction of the block;
 * each is attributed to one cause, from a `--mode divergence` dump:
 * - early return: the lane was active at an `earlyReturn` site of the ray generation shader (it
 *   finished the pipeline and idles while the warp continues);
 * - indirect function call: inside a shader invoked by traceRay (or executeCallable), the lane
 *   was active at the matching `preTraceRay` (`preExecuteCallable`) but is not active at this
 *   shader invocation's `shaderEntry` (the rays of the warp went to different shaders), at this
 *   call level or an enclosing one (a lane whose ray missed stays idle, for the same reason,
 *   through the callables the closest-hit shader calls);
 * - control flow: any other inactive lane (branches, loops with per-lane trip counts).
 * Lanes that do not exist in a partially filled warp (absent at the raygen entry) are not slots.
 *
 * Per warp, entries are in execution order (the buffer is append-only per warp), so a per-warp
 * state machine (retired lanes, a stack of traceRay call masks and entry masks) suffices.
 * Invariant: controlFlow + indirectFunctionCall + earlyReturn + activeSlots === totalSlots.
 */
import { ENTRY_PAYLOAD, ENTRY_THREAD_WORK_ID, type InstrumentationMetadata } from '../primitives/buffer-layout.js';
import type { Dump } from './dump-reader.js';
import { AnalysisInputError, KindCode, isBlockExecution, popcount32, requireSites, siteTable } from './site-table.js';
import { warpIdentity } from './warp-identity.js';

export interface DivergenceSlots {
  totalSlots: number;
  activeSlots: number;
  controlFlow: number;
  indirectFunctionCall: number;
  earlyReturn: number;
}

export interface DivergenceCharacterization extends DivergenceSlots {
  perShader: (DivergenceSlots & { shader: number; name: string })[];
}

/** Maximum traceRay nesting tracked per warp (Vulkan's maxRayRecursionDepth is at most 31). */
const MAX_DEPTH = 32;

function emptySlots(): DivergenceSlots {
  return { totalSlots: 0, activeSlots: 0, controlFlow: 0, indirectFunctionCall: 0, earlyReturn: 0 };
}

export function divergenceCharacterization(dump: Dump, meta: InstrumentationMetadata): DivergenceCharacterization {
  requireSites(meta, 'divergence characterization', ['shaderEntry', 'preTraceRay', 'earlyReturn'], 'divergence');
  const table = siteTable(meta);
  const ids = warpIdentity(dump, meta, table);
  const warps = ids.warpCount;
  const lanesOf = new Uint32Array(warps);
  const retired = new Uint32Array(warps);
  const depth = new Uint8Array(warps);
  const callMask = new Uint32Array(warps * MAX_DEPTH);
  const entryMask = new Uint32Array(warps * MAX_DEPTH);
  const nShaders = meta.shaders.length;
  // Per shader: total, active, cf, ifc, er (Float64: counts pass 2^32 on big frames).
  const acc = new Float64Array(nShaders * 5);
  const { words, entryOffsets, entrySite, entryCount } = dump;
  for (let k = 0; k < entryCount; k++) {
    const s = entrySite[k]!;
    const kind = table.kind[s]!;
    // Only ballots matter here; a dump of several modes also holds ThreadUpdate / warp-id entries.
    if (kind === KindCode.WarpId || kind === KindCode.BlockTrace || kind === KindCode.SyncPoint || kind === KindCode.PipelineEntry || kind === KindCode.PipelineExit) continue;
    const off = entryOffsets[k]!;
    const twi = words[off + ENTRY_THREAD_WORK_ID]!;
    const w = twi < ids.warpOf.length ? ids.warpOf[twi]! : -1;
    if (w < 0) {
      throw new AnalysisInputError(`divergence entry at word ${off}: thread-work id ${twi} never ran CreateWarpId (was the raygen shader instrumented?)`);
    }
    const mask = words[off + ENTRY_PAYLOAD]!;
    const raygen = table.raygen[s] === 1;
    if (kind === KindCode.ShaderEntry && raygen && lanesOf[w] === 0) lanesOf[w] = mask;
    if (kind === KindCode.EarlyReturn) {
      retired[w] = (retired[w]! | mask) >>> 0;
      continue;
    }
    if (kind === KindCode.PreTraceRay || kind === KindCode.PreExecuteCallable) {
      const d = depth[w]!;
      if (d < MAX_DEPTH) {
        callMask[w * MAX_DEPTH + d] = mask;
        entryMask[w * MAX_DEPTH + d] = mask;
      }
      depth[w] = d + 1;
      continue;
    }
    if (kind === KindCode.PostTraceRay || kind === KindCode.PostExecuteCallable) {
      if (depth[w]! > 0) depth[w] = depth[w]! - 1;
      continue;
    }
    if (!isBlockExecution(kind)) continue;
    const d = depth[w]!;
    if (kind === KindCode.ShaderEntry && !raygen && d > 0 && d <= MAX_DEPTH) entryMask[w * MAX_DEPTH + d - 1] = mask;
    const lanes = lanesOf[w] || 0xffffffff;
    const inactive = (~mask & lanes) >>> 0;
    const er = (inactive & retired[w]!) >>> 0;
    // A lane that did not enter the shader its call dispatched to, at this or any enclosing call
    // level, idles because of that indirect call (a miss lane stays idle in the closest-hit's callables).
    let diverted = 0;
    if (!raygen) for (let j = Math.min(d, MAX_DEPTH) - 1; j >= 0; j--) diverted |= callMask[w * MAX_DEPTH + j]! & ~entryMask[w * MAX_DEPTH + j]!;
    const ifc = (inactive & ~er & diverted) >>> 0;
    const n = table.blockInstCount[s]!;
    const base = table.shader[s]! * 5;
    const nInactive = popcount32(inactive);
    const nEr = popcount32(er);
    const nIfc = popcount32(ifc);
    acc[base]! += popcount32(lanes) * n;
    acc[base + 1]! += popcount32((mask & lanes) >>> 0) * n;
    acc[base + 2]! += (nInactive - nEr - nIfc) * n;
    acc[base + 3]! += nIfc * n;
    acc[base + 4]! += nEr * n;
  }
  const total = emptySlots();
  const perShader = meta.shaders.map((sh, i) => {
    const x: DivergenceSlots = {
      totalSlots: acc[i * 5]!,
      activeSlots: acc[i * 5 + 1]!,
      controlFlow: acc[i * 5 + 2]!,
      indirectFunctionCall: acc[i * 5 + 3]!,
      earlyReturn: acc[i * 5 + 4]!,
    };
    total.totalSlots += x.totalSlots;
    total.activeSlots += x.activeSlots;
    total.controlFlow += x.controlFlow;
    total.indirectFunctionCall += x.indirectFunctionCall;
    total.earlyReturn += x.earlyReturn;
    return { shader: i, name: sh.name, ...x };
  });
  return { ...total, perShader };
}
