import test from 'ava';
import { cloneFunction, cloneModule } from '../../src/ir/clone.js';
import { printModule } from '../../src/ir/printer.js';
import { verifyModule } from '../../src/ir/verify.js';
import { buildEveryOpModule } from './fixtures/every-op.js';

test('cloneModule prints identically and shares no objects', (t) => {
  const { m } = buildEveryOpModule();
  const text = printModule(m);
  const c = cloneModule(m);
  t.is(printModule(c), text);
  // Mutate the copy everywhere; the original must not change.
  c.functions[1]!.blocks[0]!.insts[0]!.loc.line = 999;
  c.functions[1]!.blocks[0]!.name = 'renamed';
  const st = c.types.types.find((x) => x.kind === 'struct');
  if (st?.kind === 'struct') st.members[0]!.name = 'renamed';
  c.globals[0]!.loc.line = 999;
  c.constants.find((x) => x.parts)!.parts![0] = 12345 as never;
  c.entryPoints[1]!.localSize![0] = 99;
  c.sources[0]!.text = '';
  t.is(printModule(m), text);
});

test('cloneFunction gives fresh ids and keeps the module valid', (t) => {
  const { m } = buildEveryOpModule();
  const main = m.functions.find((f) => f.name === 'main')!;
  const before = m.nextId;
  const { fn, idMap } = cloneFunction(m, main, 'main.copy');
  t.deepEqual(verifyModule(m), []);
  t.is(fn.name, 'main.copy');
  t.is(m.functions.at(-1), fn);
  const count = main.params.length + main.blocks.reduce((n, b) => n + 1 + b.insts.length, 0);
  t.is(idMap.size, count);
  t.is(m.nextId, before + count + 1);
  for (const newId of idMap.values()) t.true(newId >= before);
  // Phi incoming blocks and merge info point into the copy.
  const ids = new Set(fn.blocks.map((b) => b.id));
  for (const b of fn.blocks) {
    if (b.merge) t.true(ids.has(b.merge.merge));
    for (const i of b.insts) if (i.op === 'phi') for (const inc of i.incoming) t.true(ids.has(inc.block));
  }
  // The copy calls the same callee and uses the same globals/constants.
  const call = fn.blocks.flatMap((b) => b.insts).find((i) => i.op === 'call');
  t.is(call?.op === 'call' ? call.callee : undefined, m.functions.find((f) => f.name === 'scale(f1;u1;')!.id);
});
