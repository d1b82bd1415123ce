/**
 * The SPIR-V reader's fuzz cases: operand-level mutants of every built-in workload's stage
 * modules (as vvision's SPIR-V writer emits them). The 5-word header and every instruction's
 * first word (word count and opcode) are kept, so each mutant is a well-formed instruction stream
 * whose operands lie: 1 to 3 operand words, each one bit flipped, replaced by a small number
 * (mostly a plausible id, type or enum), by the module's id bound or past it, or by another word
 * of the module. A case is `accepted` (reads and verifies), `located` (a SpirvReadError with its
 * word offset), or a failure: `unlocated` (a SpirvReadError without one) or `internal` (anything
 * else thrown). The same seed always gives the same mutant.
 */
import { spirvBytes, writeSpirv } from '../src/backend/spirv/write-spirv.js';
import { compileWorkload } from '../src/driver/compile-workload.js';
import { readSpirv, SpirvReadError } from '../src/frontend/spirv/read-module.js';
import { listBuiltinWorkloads, loadManifest } from '../src/sim/workload/load-manifest.js';
import { seededRandom } from './mutate.js';
import type { Verdict } from './fuzz-cases.js';

export interface SeedModule {
  /** `workload/stage-file.spv`, for failure messages. */
  name: string;
  words: Uint32Array;
  /** Word offsets of the instructions that have operands. */
  withOperands: number[];
}

/** Every distinct stage module of every built-in workload, written as SPIR-V. */
export function seedModules(): SeedModule[] {
  const out: SeedModule[] = [];
  for (const w of listBuiltinWorkloads()) {
    for (const m of compileWorkload(loadManifest(w.manifest), () => {}).modules) {
      const words = writeSpirv(m);
      const withOperands: number[] = [];
      for (let at = 5; at < words.length; at += words[at]! >>> 16) if (words[at]! >>> 16 > 1) withOperands.push(at);
      out.push({ name: `${w.name}/${m.sources[0]!.path.split('/').pop()}.spv`, words, withOperands });
    }
  }
  return out;
}

export const SPIRV_MUTATION_KINDS = ['flipBit', 'smallNumber', 'pastBound', 'otherWord'] as const;
export type SpirvMutationKind = (typeof SPIRV_MUTATION_KINDS)[number];

export interface SpirvMutant {
  /** What was done, as `kind@word`. */
  edits: string[];
  words: Uint32Array;
}

/** One to three operand edits of `seed`'s module; header and instruction first words untouched. */
export function mutateOperands(module: SeedModule, seed: number): SpirvMutant {
  const rnd = seededRandom(seed);
  const words = Uint32Array.from(module.words);
  const bound = words[3]!;
  const edits: string[] = [];
  const n = 1 + Math.floor(rnd() * 3);
  for (let k = 0; k < n; k++) {
    const start = module.withOperands[Math.floor(rnd() * module.withOperands.length)]!;
    const count = words[start]! >>> 16;
    const at = start + 1 + Math.floor(rnd() * (count - 1));
    const kind = SPIRV_MUTATION_KINDS[Math.floor(rnd() * SPIRV_MUTATION_KINDS.length)]!;
    switch (kind) {
      case 'flipBit': words[at] = (words[at]! ^ (1 << Math.floor(rnd() * 32))) >>> 0; break;
      case 'smallNumber': words[at] = Math.floor(rnd() * Math.min(bound + 8, 300)); break;
      case 'pastBound': words[at] = bound + Math.floor(rnd() * 4); break;
      case 'otherWord': words[at] = words[5 + Math.floor(rnd() * (words.length - 5))]!; break;
    }
    edits.push(`${kind}@${at}`);
  }
  return { edits, words };
}

export interface SpirvCaseResult {
  seed: number;
  module: string;
  edits: string[];
  verdict: Verdict;
  ms: number;
  detail?: string;
}

/** SPIR-V case `seed`: which module and which edits both follow from the seed. */
export function runSpirvCase(modules: readonly SeedModule[], seed: number): SpirvCaseResult {
  const module = modules[seed % modules.length]!;
  const { edits, words } = mutateOperands(module, seed);
  const base = { seed, module: module.name, edits };
  const t0 = performance.now();
  try {
    readSpirv('mutant.spv', spirvBytes(words));
  } catch (e) {
    const ms = performance.now() - t0;
    if (!(e instanceof SpirvReadError)) return { ...base, verdict: 'internal', ms, detail: `threw: ${e instanceof Error ? e.stack : String(e)}` };
    if (e.wordOffset === undefined) return { ...base, verdict: 'unlocated', ms, detail: e.message };
    return { ...base, verdict: 'located', ms };
  }
  return { ...base, verdict: 'accepted', ms: performance.now() - t0 };
}
