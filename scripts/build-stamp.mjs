/**
 * Whether build/ is up to date with the sources: its stamp (written by scripts/build.mjs when a
 * build finishes) is newer than every file of src/ and every build setting. `prepare` skips the
 * build when it is (build.mjs --if-stale), and tests that run the real command use the built CLI
 * then and the sources through tsx otherwise (test/cli/vvision-command.ts).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The build's stamp file under `root`. */
export function buildStampPath(root) {
  return join(root, 'build', '.build-stamp');
}

/** The newest modification time under `path` (a file or a folder, recursively). */
function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const e of readdirSync(path)) t = Math.max(t, newest(join(path, e)));
  return t;
}

/** True when build/ under `root` was stamped after the last change to any input of the build. */
export function buildIsFresh(root) {
  const stamp = buildStampPath(root);
  if (!existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/build.mjs', 'scripts/build-stamp.mjs'];
  return inputs.map((p) => join(root, p)).every((p) => !existsSync(p) || newest(p) <= built);
}
