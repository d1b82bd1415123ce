/**
 * The `simt` utility (paper 003, Sec. III ⑤ i, Fig. 7): WarpUpdate(subgroupBallot(true)) at the
 * entry of every basic block of every function of every stage. Feeds SIMT efficiency, hotspots,
 * dynamic opcode counts and the inline source annotation.
 *
 * Keeps: one `block` site per original block; the entry block of each stage's entry function is a
 * `block` site too (divergence mode marks it `shaderEntry` instead).
 */
import type { ProbeContext } from './probe-context.js';

export function instrumentSimt(s: ProbeContext): void {
  for (const sh of s.shaders) {
    for (const fn of sh.functions) {
      for (const block of s.originalBlocks(fn)) {
        s.probe({ fn, point: { at: 'blockEntry', block }, kind: 'block', record: 'ballot' });
      }
    }
  }
}
