/**
 * The static metadata as written to a run directory (metadata.json): every source path named
 * relative to the manifest's folder (portable-path.ts), never the absolute path of the machine
 * that ran it. The analyses match sites to files by these strings only, so a run read back from
 * disk analyses the same; the source text travels inside the metadata.
 * Invariant: pure (returns a copy); distinct files keep distinct names.
 */
import type { InstrumentationMetadata } from '../primitives/buffer-layout.js';
import { portableNamer } from '../report/portable-path.js';

export function portableMetadata(meta: InstrumentationMetadata, manifestDir: string): InstrumentationMetadata {
  const paths = new Set<string>();
  for (const sh of meta.shaders) {
    paths.add(sh.sourcePath);
    for (const f of sh.files ?? []) paths.add(f.path);
  }
  for (const s of meta.sites) paths.add(s.loc.file);
  paths.delete('');
  const name = portableNamer(paths, manifestDir);
  const named = (p: string) => (p === '' ? p : name(p));
  return {
    ...meta,
    shaders: meta.shaders.map((sh) => ({
      ...sh,
      sourcePath: named(sh.sourcePath),
      ...(sh.files ? { files: sh.files.map((f) => ({ ...f, path: named(f.path) })) } : {}),
    })),
    sites: meta.sites.map((s) => ({ ...s, loc: { ...s.loc, file: named(s.loc.file) } })),
  };
}
