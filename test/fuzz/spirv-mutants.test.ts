/**
 * 150 operand-level SPIR-V mutants (fuzz/spirv-mutants.ts) of the built-in workloads' modules:
 * reproducible from the seed, header and every instruction's first word kept, and each one read
 * or refused with a SpirvReadError carrying its word offset. `npm run fuzz -- --count 0 --spirv
 * 2000` runs the long version.
 */
import test from 'ava';
import { mutateOperands, runSpirvCase, seedModules } from '../../fuzz/spirv-mutants.js';

const modules = seedModules();

test('mutants are reproducible, keep the header and every instruction first word, and change only operands', (t) => {
  const m = modules[0]!;
  t.deepEqual(mutateOperands(m, 5), mutateOperands(m, 5));
  let changed = 0;
  for (let seed = 1; seed <= 50; seed++) {
    const { words } = mutateOperands(m, seed);
    t.deepEqual(Array.from(words.subarray(0, 5)), Array.from(m.words.subarray(0, 5)));
    for (const at of m.withOperands) t.is(words[at], m.words[at]);
    if (words.some((w, i) => w !== m.words[i])) changed++;
  }
  t.true(changed >= 45, `${changed} of 50 mutants differ from their seed`);
});

test('150 seeded SPIR-V mutants: read or refused at a word offset, never anything else', (t) => {
  const counts = { accepted: 0, located: 0, internal: 0, unlocated: 0 };
  const failures: string[] = [];
  for (let seed = 1; seed <= 150; seed++) {
    const r = runSpirvCase(modules, seed);
    counts[r.verdict]++;
    if (r.verdict === 'internal' || r.verdict === 'unlocated') failures.push(`seed ${seed} (${r.module}; ${r.edits.join(', ')}): ${r.detail}`);
  }
  t.deepEqual(failures, []);
  t.true(counts.accepted > 10 && counts.located > 50, JSON.stringify(counts));
});
