/**
 * The JavaScript `switch` for an IR switch terminator, shared by both engines (warp-synchronous
 * and lane-serial): case values normalised to the selector's signedness, cases that share a target
 * folded into one arm, cases that go to the default left to `default`.
 */
import type { BlockId, InstOf } from '../../ir/inst.js';
import { numLit } from './emit-context.js';

/** `selector` is the JS expression of the selector value; `goTo(block)` the statement that jumps. */
export function switchStatementJs(
  inst: InstOf<'switch'>, selector: string, unsigned: boolean, goTo: (b: BlockId) => string,
): string {
  const norm = (x: number) => (unsigned ? x >>> 0 : x | 0);
  const byTarget = new Map<BlockId, number[]>();
  for (const c of inst.cases) {
    if (c.target === inst.default) continue;
    const l = byTarget.get(c.target) ?? [];
    l.push(norm(c.value));
    byTarget.set(c.target, l);
  }
  const arms = [...byTarget].map(([t, vs]) => `${vs.map((v) => `case ${numLit(v)}:`).join(' ')} { ${goTo(t)} break; }`);
  return `switch (${selector}) { ${arms.join(' ')} default: { ${goTo(inst.default)} } }`;
}
