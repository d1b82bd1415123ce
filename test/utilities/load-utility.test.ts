import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyse, compileWorkload, instrument, simulate } from '../../src/api/pipeline.js';
import { loadUtilities } from '../../src/utilities/load-utility.js';
import { UtilityError, UtilityTypeError } from '../../src/utilities/utility-error.js';

const dir = mkdtempSync(join(tmpdir(), 'vvision-utility-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

test.serial('type errors are reported as file:line:col: error: ..., every one of them', async (t) => {
  const p = file('typo.ts', [
    "import { defineUtility } from 'vvision';",
    'export default defineUtility({',
    "  name: 'typo',",
    "  description: 'wrong record name and a wrong return',",
    '  place(ctx) {',
    '    for (const sh of ctx.shaders) for (const x of ctx.blockEntries(sh.root)) ctx.probe({ ...x, kind: "k", record: "ballots" });',
    '  },',
    '  analyse() {',
    '    return { tables: 3 };',
    '  },',
    '});',
    '',
  ].join('\n'));
  const e = await t.throwsAsync(loadUtilities(p), { instanceOf: UtilityTypeError });
  t.is(e!.diagnostics.length, 2, e!.message);
  t.regex(e!.diagnostics[0]!, new RegExp(`^${p}:6:\\d+: error: Type '"ballots"' is not assignable to type 'ProbeRecord'`));
  // The object literal's analyse does not return a UtilityAnalysis: reported at the method, with why.
  t.regex(e!.diagnostics[1]!, new RegExp(`^${p}:8:3: error: [\\s\\S]*'tables' are incompatible`));
});

test.serial('local .ts modules a utility imports are checked and loaded too; missing ones and cycles are located errors', async (t) => {
  file('helper.ts', "export const kindName = (s: string): string => `count-${s}`;\n");
  const rel = file('relative.ts', [
    "import { defineUtility } from 'vvision';",
    "import { kindName } from './helper.js';",
    "export default defineUtility({ name: 'uses-helper', description: kindName('x'), place() {}, analyse: () => ({}) });",
    '',
  ].join('\n'));
  const [u] = await loadUtilities(rel);
  t.is(u!.description, 'count-x');
  const badHelper = file('bad-helper.ts', 'export const n: number = "one";\n');
  const usesBad = file('uses-bad.ts', "import { n } from './bad-helper';\nexport const m = n;\n");
  const e = await t.throwsAsync(loadUtilities(usesBad), { instanceOf: UtilityTypeError });
  t.regex(e!.message, new RegExp(`^${badHelper}:1:14: error: Type 'string' is not assignable to type 'number'`));
  const missing = file('missing-import.ts', "import { x } from './nowhere.js';\nexport const y = x;\n");
  await t.throwsAsync(loadUtilities(missing), { instanceOf: UtilityTypeError, message: new RegExp(`^${missing}:1:19: error: Cannot find module './nowhere.js'`) });
  const a = file('cycle-a.ts', "import { b } from './cycle-b.js';\nexport const a = 1 + b;\n");
  file('cycle-b.ts', "import { a } from './cycle-a.js';\nexport const b = 2;\nexport const c = () => a;\n");
  await t.throwsAsync(loadUtilities(a), { instanceOf: UtilityTypeError, message: /error: circular import between utility files: .*cycle-a.ts -> .*cycle-b.ts -> .*cycle-a.ts/ });
});

test.serial('a file must export a utility with its own name', async (t) => {
  const none = file('none.ts', 'export const answer = 42;\n');
  await t.throwsAsync(loadUtilities(none), { instanceOf: UtilityError, message: /exports no utility/ });
  const clash = file('clash.ts', "import { defineUtility } from 'vvision';\nexport default defineUtility({ name: 'simt', description: '', place() {}, analyse() { return {}; } });\n");
  await t.throwsAsync(loadUtilities(clash), { instanceOf: UtilityError, message: /'simt' is a built-in utility's/ });
  await t.throwsAsync(loadUtilities(join(dir, 'missing.ts')), { instanceOf: UtilityError, message: /no such utility file/ });
  const top = file('top.ts', "const n: number = 1;\nif (n > 0) throw new Error('refusing to load');\nexport {};\n");
  await t.throwsAsync(loadUtilities(top), { instanceOf: UtilityError, message: `${top}:2:18: loading the utility failed: refusing to load` });
});

test.serial('failures inside a loaded utility name its file and line; bad report material names the key', async (t) => {
  t.timeout(300_000);
  const p = file('several.ts', [
    "import { defineUtility } from 'vvision';",
    'export const thrower = defineUtility({',
    "  name: 'thrower', description: 'throws while placing',",
    '  place() {',
    "    throw new Error('no good place');",
    '  },',
    '  analyse: () => ({}),',
    '});',
    'export const missingVariable = defineUtility({',
    "  name: 'missing-variable', description: 'records a variable that does not exist',",
    '  place(ctx) {',
    '    const sh = ctx.shaders[0]!;',
    "    ctx.probe({ ...ctx.blockEntries(sh.root)[0]!, kind: 'v', record: { value: { variable: 'nope' } } });",
    '  },',
    '  analyse: () => ({}),',
    '});',
    'export const badTable = defineUtility({',
    "  name: 'bad-table', description: 'a row with too few cells',",
    "  place(ctx) { for (const sh of ctx.shaders) ctx.probe({ ...ctx.blockEntries(sh.root)[0]!, kind: 'entry', record: 'count' }); },",
    "  analyse: () => ({ tables: [{ title: 't', header: ['a', 'b'], rows: [[1]] }] }),",
    '});',
    '',
  ].join('\n'));
  // Every named export shaped as a utility, in export-name order (a module namespace's order).
  const [badTable, missingVariable, thrower] = await loadUtilities(p);
  t.deepEqual([badTable!.name, missingVariable!.name, thrower!.name], ['bad-table', 'missing-variable', 'thrower']);
  const w = await compileWorkload('tri');
  t.throws(() => instrument(w, thrower!), { instanceOf: UtilityError, message: `${p}:5:11: utility 'thrower' failed in place: no good place` });
  t.throws(() => instrument(w, missingVariable!), { instanceOf: UtilityError, message: /missing-variable' failed in place: no variable 'nope' in function main/ });
  const run = await simulate(instrument(w, badTable!), { width: 8, height: 4 });
  t.throws(() => analyse(run), { instanceOf: UtilityError, message: "utility 'bad-table': analyse returned tables[0].rows[0]: 1 cells for 2 columns" });
});
