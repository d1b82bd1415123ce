/**
 * The `its` utility (paper 003, Fig. 10-11): WarpUpdate(ballot) at the pipeline entry (raygen
 * entry) and at the pipeline exit. The pipeline must be left through ONE exit block so that a
 * warp that reconverges before leaving (SIMT stack) executes the exit probe exactly once and the
 * exit/entry ratio is 1.0; independent thread scheduling splits it into several executions.
 * So, when the raygen entry function has several returns, they are rewritten into branches to a
 * new exit block holding the probe and the only return (Fig. 10's "pre-Volta sync point").
 */
import type { BlockId, Inst, ValueId } from '../../ir/inst.js';
import { Builder } from '../../ir/builder.js';
import type { InstrumentationSession } from './instrumentation-session.js';

export function instrumentIts(s: InstrumentationSession): void {
  for (const sh of s.shaders) {
    if (sh.entry.stage !== 'raygen') continue;
    const fn = sh.root;
    const returns: { block: BlockId; inst: Inst }[] = [];
    for (const b of fn.blocks) {
      const last = b.insts[b.insts.length - 1];
      if (last?.op === 'return') returns.push({ block: b.id, inst: last });
    }
    s.emit({ fn, point: { at: 'blockEntry', block: fn.blocks[0]!.id }, kind: 'pipelineEntry', primitive: 'WarpUpdate' });
    if (returns.length === 0) continue;
    let exitReturn: ValueId;
    let final = returns[0]!;
    for (const r of returns) if (r.inst.loc.line >= final.inst.loc.line) final = r;
    if (returns.length === 1) {
      exitReturn = final.inst.id;
    } else {
      const b = new Builder(s.m, fn);
      b.loc = { ...final.inst.loc };
      const exit = b.createBlock('vv.pipeline.exit');
      b.setInsertPoint(exit);
      exitReturn = b.emitVoid('return', {});
      for (const r of returns) {
        const block = fn.blocks.find((x) => x.id === r.block)!;
        block.insts[block.insts.length - 1] = { op: 'branch', target: exit, id: r.inst.id, type: r.inst.type, loc: r.inst.loc };
      }
    }
    s.emit({ fn, point: { at: 'before', inst: exitReturn }, kind: 'pipelineExit', primitive: 'WarpUpdate', block: s.originalBlockOf(fn, final.inst.id) });
  }
}
