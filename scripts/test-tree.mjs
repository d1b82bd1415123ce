/**
 * The compiled test tree of `npm test` (scripts/test.mjs): after tsc has written the compiled files
 * into .test-build/, every other entry of the checkout is put beside them, so that the tree is laid
 * out as the checkout and every path computed from a file's own location resolves as it does there.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** The compiled tree's folder, in the checkout's root. */
export const OUT = '.test-build';

/** Entries of the checkout's root linked whole (symbolic links): large, generated or outside the project. */
export const LINKED_WHOLE = ['node_modules', 'build', 'shared', '.bench', '.scratch', 'vvision-out', 'out'];

/**
 * Gives `to` every entry of `from` that tsc did not write there: a real folder for each folder (code
 * that lists a folder asks whether an entry is a folder or a file, and a link is neither), and a
 * hard link for each file (the same file: a test that rewrites a fixture rewrites the checkout's).
 */
function mirror(from, to) {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, e.name);
    const dst = join(to, e.name);
    if (e.isDirectory()) mirror(src, dst);
    else if (!existsSync(dst)) hardLink(src, dst);
  }
}

function hardLink(src, dst) {
  try {
    linkSync(src, dst);
  } catch {
    copyFileSync(src, dst); // another file system, or links refused
  }
}

/** Completes the compiled tree `out` (tsc's output for the checkout at `root`) with the rest of the checkout. */
export function layOutTestTree(root, out) {
  for (const e of readdirSync(root, { withFileTypes: true })) {
    if (e.name === OUT || e.name === '.git') continue;
    const src = join(root, e.name);
    const dst = join(out, e.name);
    if (LINKED_WHOLE.includes(e.name) || e.isSymbolicLink()) {
      if (!existsSync(dst)) symlinkSync(src, dst);
    } else if (e.isDirectory()) mirror(src, dst);
    else if (!existsSync(dst)) hardLink(src, dst);
  }
}
