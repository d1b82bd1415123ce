/**
 * The `paths` utility: thread compaction and traceRay thread paths (paper 003, Fig. 8-9,
 * Table III). In ray generation shaders only:
 * - CreateWarpId and a `pipelineEntry` ballot at the entry (warp identity and the warp's lanes);
 * - a `preTraceRay` ballot right before every traceRay (Fig. 9 line 5);
 * - a `syncPoint` ballot where the warp reconverges after it (Fig. 9 line 11): the entry of the
 *   first post-dominator of the traceRay's block that lies outside the innermost loop containing
 *   the traceRay (the loop's exit; for a traceRay in no loop, its immediate post-dominator), or,
 *   when there is none before the function exit, before each return of the function.
 * Sync points are planned on the original CFG before any probe splits a block.
 */
import type { Cfg } from '../../ir/cfg.js';
import { dominatorTree, immediatePostDominator, postDominatorTree, type DomTree } from '../../ir/dominators.js';
import type { BlockId } from '../../ir/inst.js';
import type { Function } from '../../ir/module.js';
import type { ProbeContext, ProbePoint } from './probe-context.js';

export function instrumentPaths(s: ProbeContext): void {
  for (const sh of s.shaders) {
    if (sh.entry.stage !== 'raygen') continue;
    const traces = s.traceRays(sh);
    const syncs: { fn: Function; point: ProbePoint; traceRay: number }[] = [];
    const analyses = new Map<number, { pdt: DomTree; loops: BlockId[][] }>();
    traces.forEach(({ fn, inst }, k) => {
      let a = analyses.get(fn.id);
      if (!a) {
        const cfg = s.originalCfg(fn);
        analyses.set(fn.id, (a = { pdt: postDominatorTree(cfg), loops: naturalLoops(cfg, dominatorTree(cfg)) }));
      }
      const sync = syncBlock(a.pdt, a.loops, s.originalBlockOf(fn, inst));
      if (sync !== undefined) {
        syncs.push({ fn, point: { at: 'blockEntry', block: sync }, traceRay: k });
        return;
      }
      for (const r of s.originalReturns(fn)) syncs.push({ fn, point: { at: 'before', inst: r.id }, traceRay: k });
    });
    const entry = { at: 'blockEntry', block: sh.root.blocks[0]!.id } as const;
    s.probe({ fn: sh.root, point: entry, kind: 'warpId', record: 'warpId' });
    s.probe({ fn: sh.root, point: entry, kind: 'pipelineEntry', record: 'ballot' });
    traces.forEach(({ fn, inst }, k) => s.probe({ fn, point: { at: 'before', inst }, kind: 'preTraceRay', record: 'ballot', traceRay: k }));
    for (const sync of syncs) s.probe({ ...sync, kind: 'syncPoint', record: 'ballot' });
  }
}

/** Bodies of the natural loops of a CFG (one per header; back edges to a header merged). */
export function naturalLoops(cfg: Cfg, dom: DomTree): BlockId[][] {
  const bodies = new Map<BlockId, Set<BlockId>>();
  for (const [from, outs] of cfg.succs) {
    for (const header of outs) {
      if (!dom.dominates(header, from)) continue;
      let body = bodies.get(header);
      if (!body) bodies.set(header, (body = new Set([header])));
      const stack = [from];
      while (stack.length > 0) {
        const n = stack.pop()!;
        if (body.has(n)) continue;
        body.add(n);
        for (const p of cfg.preds.get(n) ?? []) stack.push(p);
      }
    }
  }
  return [...bodies.values()].map((b) => [...b]);
}

/** Where the warp reconverges after `block`: first post-dominator outside its innermost loop. */
function syncBlock(pdt: DomTree, loops: BlockId[][], block: BlockId): BlockId | undefined {
  let innermost: BlockId[] | undefined;
  for (const body of loops) if (body.includes(block) && (!innermost || body.length < innermost.length)) innermost = body;
  let b = immediatePostDominator(pdt, block);
  while (b !== undefined && innermost?.includes(b)) b = immediatePostDominator(pdt, b);
  return b;
}
