import test from 'ava';
import { buildCfg } from '../../src/ir/cfg.js';
import { dominatorTree, immediatePostDominator, postDominatorTree, pseudoExits, walkDominatorScopes } from '../../src/ir/dominators.js';
import type { BlockId } from '../../src/ir/inst.js';
import { parseModuleText } from '../../src/ir/text-parser.js';
import { verifyModule } from '../../src/ir/verify.js';
import { moduleFromEdges } from './fixtures/cfg-shapes.js';

type Edges = readonly (readonly [number, readonly number[]])[];

function trees(edges: Edges) {
  const { m, fn } = moduleFromEdges(edges);
  const cfg = buildCfg(fn);
  return { m, cfg, dom: dominatorTree(cfg), pdom: postDominatorTree(cfg) };
}

/** The idom map as a plain object, `null` for undefined, for exact comparison. */
function asObject(idom: Map<BlockId, BlockId | undefined>): Record<number, number | null> {
  const out: Record<number, number | null> = {};
  for (const [k, v] of [...idom].sort((a, b) => a[0] - b[0])) out[k] = v ?? null;
  return out;
}

test('diamond', (t) => {
  const { m, dom, pdom } = trees([[1, [2, 3]], [2, [4]], [3, [4]], [4, []]]);
  t.deepEqual(verifyModule(m), []);
  t.deepEqual(asObject(dom.idom), { 1: null, 2: 1, 3: 1, 4: 1 });
  t.deepEqual(asObject(pdom.idom), { 1: 4, 2: 4, 3: 4, 4: null });
  t.is(immediatePostDominator(pdom, 1 as BlockId), 4 as BlockId);
  t.true(dom.dominates(1 as BlockId, 4 as BlockId));
  t.true(dom.dominates(2 as BlockId, 2 as BlockId));
  t.false(dom.dominates(2 as BlockId, 4 as BlockId));
  t.deepEqual(dom.children(1 as BlockId).sort(), [2, 3, 4]);
  t.deepEqual(dom.roots, [1]);
  t.true(pdom.dominates(4 as BlockId, 1 as BlockId));
});

test('nested loops with breaks and continues', (t) => {
  const edges: Edges = [
    [1, [2]], // entry
    [2, [3, 9]], // outer header
    [3, [4]],
    [4, [5, 8]], // inner header
    [5, [6, 8]], // inner body: break to 8
    [6, [7, 4]], // continue straight to the header
    [7, [4]], // inner latch
    [8, [2, 9]], // inner exit: outer back edge or break outer
    [9, []],
  ];
  const { m, dom, pdom } = trees(edges);
  t.deepEqual(verifyModule(m), []);
  t.deepEqual(asObject(dom.idom), { 1: null, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 4, 9: 2 });
  t.deepEqual(asObject(pdom.idom), { 1: 2, 2: 9, 3: 4, 4: 8, 5: 8, 6: 4, 7: 4, 8: 9, 9: null });
});

test('early returns: several exits join the virtual exit', (t) => {
  const { cfg, dom, pdom } = trees([[1, [2, 3]], [2, [4, 5]], [3, [5]], [4, []], [5, [6]], [6, []]]);
  t.deepEqual(cfg.exits, [4, 6]);
  t.deepEqual(asObject(dom.idom), { 1: null, 2: 1, 3: 1, 4: 2, 5: 1, 6: 5 });
  t.deepEqual(asObject(pdom.idom), { 1: null, 2: null, 3: 5, 4: null, 5: 6, 6: null });
  t.deepEqual(pdom.roots.sort(), [1, 2, 4, 6]);
  t.is(immediatePostDominator(pdom, 2 as BlockId), undefined);
});

test('switch with fall-through', (t) => {
  const { m, dom, pdom } = trees([[1, [5, 2, 3, 4]], [2, [3]], [3, [5]], [4, [5]], [5, []]]);
  t.deepEqual(verifyModule(m), []);
  t.deepEqual(asObject(dom.idom), { 1: null, 2: 1, 3: 1, 4: 1, 5: 1 });
  t.deepEqual(asObject(pdom.idom), { 1: 5, 2: 3, 3: 5, 4: 5, 5: null });
});

test('irreducible loop with two entries', (t) => {
  const { dom, pdom } = trees([[1, [2, 3]], [2, [3, 4]], [3, [2, 4]], [4, []]]);
  t.deepEqual(asObject(dom.idom), { 1: null, 2: 1, 3: 1, 4: 1 });
  t.deepEqual(asObject(pdom.idom), { 1: 4, 2: 4, 3: 4, 4: null });
});

test('infinite loop without any exit gets a pseudo exit at its latch', (t) => {
  const { cfg, dom, pdom } = trees([[1, [2]], [2, [3]], [3, [2]]]);
  t.deepEqual(cfg.exits, []);
  t.deepEqual(pseudoExits(cfg), [3]);
  t.deepEqual(asObject(dom.idom), { 1: null, 2: 1, 3: 2 });
  t.deepEqual(asObject(pdom.idom), { 1: 2, 2: 3, 3: null });
});

test('infinite loop beside a normal exit', (t) => {
  const { cfg, dom, pdom } = trees([[1, [2, 5]], [2, [3]], [3, [4]], [4, [2]], [5, []]]);
  t.deepEqual(pseudoExits(cfg), [4]);
  t.deepEqual(asObject(dom.idom), { 1: null, 2: 1, 3: 2, 4: 3, 5: 1 });
  t.deepEqual(asObject(pdom.idom), { 1: null, 2: 3, 3: 4, 4: null, 5: null });
});

test('unreachable blocks are outside the dominator tree but inside the post-dominator tree', (t) => {
  const { dom, pdom } = trees([[1, [2, 3]], [2, [4]], [3, [4]], [4, []], [9, [4]]]);
  t.false(dom.idom.has(9 as BlockId));
  t.false(dom.dominates(1 as BlockId, 9 as BlockId));
  t.false(dom.dominates(9 as BlockId, 9 as BlockId));
  t.is(pdom.idom.get(9 as BlockId), 4 as BlockId);
});

test('RT terminators are exits: ignoreIntersection and terminateRay reconverge at the virtual exit', (t) => {
  const m = parseModuleText(`
const %1: bool = true
fn %2 @anyhit() -> void {
^b3:
  %4 = condBranch %1 ^b5 ^b6
^b5:
  %7 = ignoreIntersection
^b6:
  %8 = condBranch %1 ^b9 ^b10
^b9:
  %11 = terminateRay
^b10:
  %12 = return
}
`);
  t.deepEqual(verifyModule(m), []);
  const cfg = buildCfg(m.functions[0]!);
  t.deepEqual(cfg.exits, [5, 9, 10]);
  const pdom = postDominatorTree(cfg);
  t.deepEqual(asObject(pdom.idom), { 3: null, 5: null, 6: null, 9: null, 10: null });
  t.deepEqual(asObject(dominatorTree(cfg).idom), { 3: null, 5: 3, 6: 3, 9: 6, 10: 6 });
});

test('a long chain does not overflow the stack', (t) => {
  const n = 20000;
  const edges: [number, number[]][] = [];
  for (let i = 1; i < n; i++) edges.push([i, [i + 1]]);
  edges.push([n, []]);
  const { dom, pdom } = trees(edges);
  t.is(dom.idom.get(n as BlockId), (n - 1) as BlockId);
  t.is(pdom.idom.get(1 as BlockId), 2 as BlockId);
  t.true(dom.dominates(1 as BlockId, n as BlockId));
});

test('walkDominatorScopes enters each block after its dominator and leaves it after its subtree', (t) => {
  // 1 -> 2 -> 3, 1 -> 4: the tree is 1 { 2 { 3 }, 4 }.
  const { dom } = trees([[1, [2, 4]], [2, [3]], [3, []], [4, []]]);
  const events: string[] = [];
  walkDominatorScopes(dom, (b) => {
    events.push(`enter ${b}`);
    return () => events.push(`leave ${b}`);
  });
  const at = (e: string) => events.indexOf(e);
  t.is(events.length, 8);
  t.true(at('enter 1') === 0 && at('leave 1') === 7);
  t.true(at('enter 2') < at('enter 3') && at('leave 3') < at('leave 2'));
  t.true(at('leave 2') < at('enter 4') || at('leave 4') < at('enter 2'), 'siblings do not nest');
});
