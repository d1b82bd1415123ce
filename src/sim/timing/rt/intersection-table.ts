/**
 * Vulkan-Sim's intersection table (Baseline_warp_intersection_table): the per-warp table the RT
 * unit writes procedural-leaf candidates to, for the intersection shaders that run after the
 * traversal. Only its stores matter to timing: every RT unit policy queues them on the memory port
 * when a ray's first node arrives.
 */
import type { RtTransaction } from '../../warp-step.js';

/** Vulkan-Sim's RT_WRITE_BACK_SIZE: every RT-unit store is one 32-byte write. */
export const STORE_BYTES = 32;
/** Vulkan-Sim's Baseline_Entry: uint32 hitGroupIndex[32], then {uint32 primitiveID, instanceID} shader_data[32]. */
export const INTERSECTION_TABLE_ENTRY_BYTES = 32 * 4 + 32 * 8;
/** INTERSECTION_TABLE_MAX_LENGTH entries per warp. */
export const INTERSECTION_TABLE_BYTES = 1000 * INTERSECTION_TABLE_ENTRY_BYTES;

/**
 * The intersection-table stores of one lane's traversal (Vulkan-Sim Baseline_warp_intersection_table
 * ::add_intersection): the k-th procedural-leaf candidate writes hitGroupIndex[lane] (4 B) and
 * shader_data[lane] (8 B) of table entry k, each as a 32-byte write of its aligned sector.
 */
export function intersectionTableStores(table: number, lane: number, tx: readonly RtTransaction[]): number[] | null {
  let out: number[] | null = null;
  let k = 0;
  for (const t of tx) {
    if (t.kind !== 'proceduralLeaf') continue;
    const entry = table + k++ * INTERSECTION_TABLE_ENTRY_BYTES;
    const hitGroup = entry + lane * 4;
    const shaderData = entry + 32 * 4 + lane * 8;
    (out ??= []).push(hitGroup - (hitGroup % STORE_BYTES), shaderData - (shaderData % STORE_BYTES));
  }
  return out;
}
