import test from 'ava';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { layOutTestTree, OUT } from '../../scripts/test-tree.mjs';

test('the compiled test tree is laid out as the checkout: real folders, hard-linked files, large folders linked whole', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'vvision-test-tree-'));
  const write = (path: string, text: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  };
  write(join(root, 'package.json'), '{}\n');
  write(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  write(join(root, 'workloads', 'tri', 'workload.json'), '{}\n');
  write(join(root, 'node_modules', 'x', 'index.js'), '\n');
  write(join(root, '.git', 'HEAD'), 'ref\n');
  // What tsc wrote: a compiled file, which the layout must keep.
  const out = join(root, OUT);
  write(join(out, 'src', 'a.js'), 'export const a = 1;\n');
  layOutTestTree(root, out);

  t.true(lstatSync(join(out, 'workloads')).isDirectory(), 'a folder is a real folder');
  t.true(lstatSync(join(out, 'workloads', 'tri')).isDirectory());
  const manifest = join(out, 'workloads', 'tri', 'workload.json');
  t.true(lstatSync(manifest).isFile(), 'a file is a file, not a symbolic link');
  t.is(statSync(manifest).ino, statSync(join(root, 'workloads', 'tri', 'workload.json')).ino, 'the same file (a hard link)');
  t.is(readFileSync(join(out, 'src', 'a.ts'), 'utf8'), 'export const a = 1;\n', 'sources sit beside their compiled files');
  t.is(readFileSync(join(out, 'src', 'a.js'), 'utf8'), 'export const a = 1;\n');
  t.true(lstatSync(join(out, 'node_modules')).isSymbolicLink(), 'node_modules is linked whole');
  t.throws(() => lstatSync(join(out, '.git')), undefined, '.git stays out');
  t.throws(() => lstatSync(join(out, OUT)), undefined, 'the tree does not hold itself');
});
