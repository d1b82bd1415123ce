import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findInst } from '../../src/ir/builder.js';
import type { Module } from '../../src/ir/module.js';
import { parseModuleText } from '../../src/ir/text-parser.js';
import type { Pass } from '../../src/passes/pass.js';
import { PassError, passesByName, runPasses } from '../../src/passes/pass-manager.js';
import { allPasses, passByName, registerPass } from '../../src/passes/registry.js';

const SMALL = readFileSync(fileURLToPath(new URL('../ir/fixtures/small-valid.ir', import.meta.url)), 'utf8');

/** Toy pass: renames every block that has no name (valid rewrite). */
const nameBlocks: Pass = {
  name: 'name-blocks',
  run(m: Module) {
    let changed = false;
    for (const f of m.functions) for (const b of f.blocks) if (b.name === undefined) { b.name = `bb${b.id}`; changed = true; }
    return changed ? 'changed' : 'unchanged';
  },
};

/** Toy pass that breaks the module: it deletes the definition of a used value. */
const dropDefinition: Pass = {
  name: 'drop-definition',
  run(m: Module) {
    const fn = m.functions.find((f) => f.name === 'main')!;
    const found = findInst(fn, 27 as never)!;
    found.block.insts.splice(found.index, 1);
    return 'changed';
  },
};

test('runs passes in order, records results and timings, prints before each pass', (t) => {
  const m = parseModuleText(SMALL.replace('^b8 "entry":', '^b8:'));
  const printed: string[] = [];
  const timings = new Map<string, number>();
  const order: string[] = [];
  const tracer = (name: string): Pass => ({ name, run: () => { order.push(name); return 'unchanged'; } });
  const records = runPasses(m, [tracer('first'), nameBlocks, tracer('last'), nameBlocks], {
    printBefore: (name, text) => printed.push(`${name}:${text.includes('^b8 "bb8":') ? 'named' : 'unnamed'}`),
    timings,
  });
  t.deepEqual(order, ['first', 'last']);
  t.deepEqual(records.map((r) => `${r.name}=${r.result}`), ['first=unchanged', 'name-blocks=changed', 'last=unchanged', 'name-blocks=unchanged']);
  t.deepEqual(printed, ['first:unnamed', 'name-blocks:unnamed', 'last:named', 'name-blocks:named']);
  t.deepEqual([...timings.keys()].sort(), ['first', 'last', 'name-blocks']);
  for (const ms of timings.values()) t.true(ms >= 0);
  t.is(m.functions[0]!.blocks[0]!.name, 'bb8');
});

test('a pass that breaks the module is named in the error', (t) => {
  const m = parseModuleText(SMALL);
  const err = t.throws(() => runPasses(m, [nameBlocks, dropDefinition, nameBlocks]), { instanceOf: PassError });
  t.is(err!.passName, 'drop-definition');
  t.regex(err!.message, /^pass 'drop-definition' produced an invalid module:/);
  t.deepEqual(err!.problems, [
    '@main ^b14 %29 (phi) [t.rgen:10:3]: operand %27 is not defined',
  ]);
});

test('with verify off the broken module passes through', (t) => {
  const m = parseModuleText(SMALL);
  t.notThrows(() => runPasses(m, [dropDefinition], { verify: false }));
});

test('an invalid input is reported before any pass runs', (t) => {
  const m = parseModuleText(SMALL.replace('%24 = store %12 %23', '%24 = store %12 %2'));
  let ran = false;
  const err = t.throws(() => runPasses(m, [{ name: 'x', run: () => { ran = true; return 'unchanged'; } }]), { instanceOf: PassError });
  t.false(ran);
  t.is(err!.passName, undefined);
  t.regex(err!.message, /before any pass ran/);
});

test('an exception inside a pass is wrapped with the pass name', (t) => {
  const m = parseModuleText(SMALL);
  const err = t.throws(() => runPasses(m, [{ name: 'explode', run: () => { throw new Error('boom'); } }]), { instanceOf: PassError });
  t.is(err!.message, "pass 'explode' failed: boom");
});

test('registry: lookup by name, unknown names reported together, duplicates rejected', (t) => {
  registerPass(nameBlocks);
  registerPass(nameBlocks);
  t.is(passByName('name-blocks'), nameBlocks);
  t.true(allPasses().includes(nameBlocks));
  t.deepEqual(passesByName(['name-blocks']), [nameBlocks]);
  const err = t.throws(() => passesByName(['name-blocks', 'nope', 'nada']), { instanceOf: PassError });
  t.is(err!.message, 'unknown passes: nope, nada');
  t.throws(() => registerPass({ ...nameBlocks }), { message: /already registered as 'name-blocks'/ });
  t.throws(() => registerPass({ name: 'Bad_Name', run: () => 'unchanged' }), { message: /not kebab-case/ });
});
