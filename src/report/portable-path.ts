/**
 * Paths as written into reports and descriptions that travel to other machines: never the
 * absolute path of the machine that wrote them. A file is named relative to a base directory
 * (the manifest's) when it lies inside it or beside it, else by its base name.
 * Invariant: pure; the result is never absolute.
 */
import { dirname, isAbsolute, relative, sep } from 'node:path';

export function portablePath(path: string, baseDir: string): string {
  if (!isAbsolute(path)) return path.split(sep).join('/');
  const rel = relative(baseDir, path);
  // Up to two levels out (`../common/x.glsl`, a shared scenes folder) still reads as the project's layout.
  const ups = rel.split(sep).filter((p) => p === '..').length;
  if (rel !== '' && !isAbsolute(rel) && ups <= 2) return rel.split(sep).join('/');
  return path.split(/[\\/]/).pop() || path;
}

/** A manifest's own path, for a record: its folder's name and file (`ao/workload.json`). */
export function portableManifestPath(manifest: string): string {
  return portablePath(manifest, dirname(dirname(manifest)));
}

/**
 * A namer for every file of one output: `portablePath` for each, except that two different files
 * that would get the same name (two `common.glsl` far from the manifest) keep their whole relative
 * path, so a name still stands for one file. Invariant: injective over the paths it was given.
 */
export function portableNamer(paths: Iterable<string>, baseDir: string): (path: string) => string {
  const byName = new Map<string, Set<string>>();
  for (const p of paths) {
    const name = portablePath(p, baseDir);
    byName.set(name, (byName.get(name) ?? new Set()).add(p));
  }
  return (path) => {
    const name = portablePath(path, baseDir);
    if ((byName.get(name)?.size ?? 0) <= 1 || !isAbsolute(path)) return name;
    return relative(baseDir, path).split(sep).join('/');
  };
}
