import test from 'ava';
import { buildCfg, reachableBlocks } from '../../src/ir/cfg.js';
import type { BlockId } from '../../src/ir/inst.js';
import { moduleFromEdges } from './fixtures/cfg-shapes.js';

test('successors and predecessors are deduplicated and ordered by terminator', (t) => {
  const { fn } = moduleFromEdges([[1, [3, 2]], [2, [4, 4]], [3, [4]], [4, []]]);
  const cfg = buildCfg(fn);
  t.deepEqual(cfg.blocks, [1, 2, 3, 4]);
  t.is(cfg.entry, 1 as BlockId);
  t.deepEqual(cfg.succs.get(1 as BlockId), [3, 2]);
  t.deepEqual(cfg.succs.get(2 as BlockId), [4]);
  t.deepEqual(cfg.preds.get(4 as BlockId), [2, 3]);
  t.deepEqual(cfg.exits, [4]);
  t.deepEqual(cfg.rpo, [1, 2, 3, 4]);
});

test('rpo lists reachable blocks only, defs before uses on acyclic paths', (t) => {
  const { fn } = moduleFromEdges([[1, [2]], [2, [3, 5]], [3, [2]], [5, []], [7, [5]]]);
  const cfg = buildCfg(fn);
  t.deepEqual(cfg.rpo, [1, 2, 5, 3]);
  t.false(reachableBlocks(cfg).has(7 as BlockId));
  t.deepEqual(cfg.preds.get(5 as BlockId), [2, 7]);
});

test('switch successors: default first, then cases; missing targets are dropped', (t) => {
  const { fn } = moduleFromEdges([[1, [4, 2, 3, 99]], [2, []], [3, []], [4, []]]);
  const cfg = buildCfg(fn);
  t.deepEqual(cfg.succs.get(1 as BlockId), [4, 2, 3]);
  t.deepEqual(cfg.exits, [2, 3, 4]);
});
