/**
 * Issue 26 part 7: every generated block in docs/ (and README.md) names the script that writes it
 * and the commit its runs were made at, and is closed; a table no script produces is a defect.
 * Fast: reads markdown only, runs nothing.
 */
import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findGeneratedBlocks, generatedBegin, generatedBlockBody, generatedEnd, replaceGeneratedBlock } from '../../bench/docs/generated-blocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? markdownFiles(p) : f.endsWith('.md') ? [p] : [];
  });
}

/** Scripts a generator string may name (`npm run bench -- NAME`), which must exist in bench/. */
function generatorScript(generator: string): string | undefined {
  const m = /^npm run bench -- ([a-z-]+)/.exec(generator);
  return m ? join(root, 'bench', `${m[1]}.ts`) : undefined;
}

test('every generated block in docs/ names an existing generator, a real commit and a date, and is closed', (t) => {
  const files = [...markdownFiles(join(root, 'docs')), join(root, 'README.md')];
  let blocks = 0;
  for (const f of files) {
    const { blocks: found, problems } = findGeneratedBlocks(readFileSync(f, 'utf8'));
    t.deepEqual(problems, [], f);
    for (const b of found) {
      blocks++;
      const script = generatorScript(b.generator);
      t.truthy(script && existsSync(script), `${f}: generated:${b.name} names generator "${b.generator}", which is no bench script`);
      t.false(/^0+$/.test(b.commit), `${f}: generated:${b.name} is a placeholder (commit ${b.commit}): run ${b.generator}`);
    }
  }
  t.true(blocks >= 3, 'docs/calibration.md carries the calibration and microbenchmark blocks');
});

test('a block is replaced in place and its marker carries generator, commit and date', (t) => {
  const text = `a\n${generatedBegin('x', 'npm run bench -- docs', '0123456789ab', '2024-02-03')}\nold\n${generatedEnd('x')}\nb\n`;
  const next = replaceGeneratedBlock(text, 'x', 'npm run bench -- docs', 'abcdef1', 'new');
  t.regex(next, /^a\n<!-- generated:x begin generator="npm run bench -- docs" commit=abcdef1 date=\d{4}-\d{2}-\d{2} -->\n\nnew\n\n<!-- generated:x end -->\nb\n$/);
  t.deepEqual(findGeneratedBlocks(next).problems, []);
  t.deepEqual(findGeneratedBlocks('<!-- generated:y begin -->\n').problems.length, 2);
  t.throws(() => replaceGeneratedBlock('no block', 'x', 'g', 'abcdef1', 'b'));
});

test('a block body is read back between its markers; a missing block is undefined', (t) => {
  const text = `a\n${generatedBegin('x', 'g', 'abcdef1')}\nbody line\n${generatedEnd('x')}\nb`;
  t.is(generatedBlockBody(text, 'x'), '\nbody line\n');
  t.is(generatedBlockBody(text, 'y'), undefined);
  t.is(generatedBlockBody(replaceGeneratedBlock(text, 'x', 'g', 'abcdef1', 'new'), 'x')!.trim(), 'new');
});
