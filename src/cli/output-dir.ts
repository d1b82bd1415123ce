/**
 * Writes a run's output directory all at once: files go to a sibling staging directory that is
 * renamed into place only when every file was written, so a failed run never leaves a
 * half-written output.
 *
 * vvision never deletes what it did not write. Every directory it writes holds a marker file,
 * `.vvision-run`, listing the files it wrote; an existing `--out` directory is replaced only when
 * it is empty, or when it is such a run directory and holds nothing but the files its marker
 * lists. Anything else (`.`, a parent, a home directory, a run directory the user added a file
 * to, a plain file) is refused with an OutputDirError before any work starts (`checkOutputTarget`)
 * and again at commit time.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** The marker file naming a directory as vvision's own output. */
export const RUN_DIR_MARKER = '.vvision-run';

/** An output path that vvision will not write over. */
export class OutputDirError extends Error {}

interface MarkerRecord {
  writtenBy: 'vvision';
  files: string[];
}

export class OutputDir {
  readonly finalPath: string;
  readonly stagingPath: string;
  /** Where the files end up (FileWriter.dir). */
  readonly dir: string;
  private readonly files = new Set<string>();

  constructor(path: string) {
    this.finalPath = resolve(path);
    this.dir = this.finalPath;
    checkOutputTarget(this.finalPath);
    // A fresh directory of our own (mkdtemp never reuses a path), so nothing that exists is removed.
    mkdirSync(dirname(this.finalPath), { recursive: true });
    this.stagingPath = mkdtempSync(`${this.finalPath}.partial-`);
  }

  write(name: string, data: string | Uint8Array): void {
    const p = join(this.stagingPath, name);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, data);
    this.files.add(relative(this.stagingPath, p).split(sep).join('/'));
  }

  commit(): string {
    writeMarker(this.stagingPath, [...this.files]);
    checkOutputTarget(this.finalPath);
    if (!existsSync(this.finalPath)) {
      renameSync(this.stagingPath, this.finalPath);
      return this.finalPath;
    }
    if (readdirSync(this.finalPath).length === 0) {
      rmdirSync(this.finalPath); // fails (safely) if a file appeared since the check
      renameSync(this.stagingPath, this.finalPath);
      return this.finalPath;
    }
    // A previous run directory holding only its own files: move it aside, move the new one in, then delete the old.
    const aside = mkdtempSync(`${this.finalPath}.replaced-`); // empty: the rename replaces it
    renameSync(this.finalPath, aside);
    renameSync(this.stagingPath, this.finalPath);
    rmSync(aside, { recursive: true, force: true });
    return this.finalPath;
  }

  abandon(): void {
    rmSync(this.stagingPath, { recursive: true, force: true });
  }
}

/**
 * Throws OutputDirError unless `path` may be (re)written as a run directory: it does not exist,
 * is an empty directory, or is a vvision run directory holding only the files its marker lists.
 * Commands call this before simulating, so a refused `--out` costs nothing.
 */
export function checkOutputTarget(path: string): void {
  const p = resolve(path);
  if (!existsSync(p)) return;
  const st = lstatSync(p);
  if (!st.isDirectory() || st.isSymbolicLink()) {
    throw new OutputDirError(`--out ${path}: ${p} exists and is not a directory; vvision will not replace it (choose another path)`);
  }
  const entries = readdirSync(p);
  if (entries.length === 0) return;
  const marker = readMarker(p);
  if (!marker) {
    throw new OutputDirError(
      `--out ${path}: ${p} is not empty and is not a vvision run directory (it has no ${RUN_DIR_MARKER} marker); ` +
        'vvision never replaces a directory it did not write: choose a new or empty directory',
    );
  }
  const foreign = filesUnder(p).find((f) => f !== RUN_DIR_MARKER && !marker.has(f));
  if (foreign !== undefined) {
    throw new OutputDirError(
      `--out ${path}: ${p} is a vvision run directory, but '${foreign}' was not written by vvision; ` +
        'it would be deleted with the old run: move it away or choose another directory',
    );
  }
}

/** Adds files written into an existing run directory (by `vvision report`) to its marker. */
export function recordFilesInRunDir(dir: string, names: readonly string[]): void {
  const marker = readMarker(dir);
  if (!marker) return; // a directory of an older vvision: leave it as it is
  writeMarker(dir, [...new Set([...marker, ...names])]);
}

function writeMarker(dir: string, files: string[]): void {
  const record: MarkerRecord = { writtenBy: 'vvision', files: files.sort() };
  writeFileSync(join(dir, RUN_DIR_MARKER), `${JSON.stringify(record, null, 1)}\n`);
}

function readMarker(dir: string): Set<string> | undefined {
  const path = join(dir, RUN_DIR_MARKER);
  if (!existsSync(path)) return undefined;
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as Partial<MarkerRecord>;
    if (r.writtenBy !== 'vvision' || !Array.isArray(r.files) || !r.files.every((f) => typeof f === 'string')) return undefined;
    return new Set(r.files);
  } catch {
    return undefined;
  }
}

/** Every non-directory entry under `dir`, as '/'-separated relative paths (symbolic links are not followed). */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, prefix: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory()) walk(join(d, e.name), rel);
      else out.push(rel);
    }
  };
  walk(dir, '');
  return out;
}
