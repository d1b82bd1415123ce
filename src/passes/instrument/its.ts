/**
 * The `its` utility (paper 003, Fig. 10-11): WarpUpdate(ballot) at the pipeline entry (raygen
 * entry) and at the pipeline exit. The pipeline must be left through ONE exit block so that a
 * warp that reconverges before leaving (SIMT stack) executes the exit probe exactly once and the
 * exit/entry ratio is 1.0; independent thread scheduling splits it into several executions.
 * So, when the raygen entry function has several returns, they are rewritten into branches to a
 * new exit block holding the probe and the only return (Fig. 10's "pre-Volta sync point").
 */
import type { ProbeContext } from './probe-context.js';

export function instrumentIts(s: ProbeContext): void {
  for (const sh of s.shaders) {
    if (sh.entry.stage !== 'raygen') continue;
    const fn = sh.root;
    s.probe({ fn, point: { at: 'blockEntry', block: fn.blocks[0]!.id }, kind: 'pipelineEntry', record: 'ballot' });
    const returns = s.originalReturns(fn);
    if (returns.length === 0) continue;
    let final = returns[0]!;
    for (const r of returns) if (r.loc.line >= final.loc.line) final = r;
    const exitReturn = returns.length === 1 ? final.id : s.unifyReturns(fn, final);
    s.probe({ fn, point: { at: 'before', inst: exitReturn }, kind: 'pipelineExit', record: 'ballot', block: final.block });
  }
}
