/**
 * One output file written whole or not at all, as OutputDir does for a directory: the content goes
 * to a sibling staging file, renamed into place by `commit` (replacing a file of the same name
 * only then), removed by `abandon`.
 */
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export class OutputFile {
  readonly finalPath: string;
  readonly stagingPath: string;
  private bytes = 0;

  constructor(path: string) {
    this.finalPath = resolve(path);
    this.stagingPath = `${this.finalPath}.partial-${process.pid}`;
  }

  /** Writes the pieces in order to the staging file; returns the bytes written. */
  writeAll(pieces: Iterable<string>): number {
    mkdirSync(dirname(this.stagingPath), { recursive: true });
    const fd = openSync(this.stagingPath, 'w');
    try {
      for (const p of pieces) this.bytes += writeSync(fd, p);
    } finally {
      closeSync(fd);
    }
    return this.bytes;
  }

  commit(): string {
    renameSync(this.stagingPath, this.finalPath);
    return this.finalPath;
  }

  abandon(): void {
    rmSync(this.stagingPath, { force: true });
  }
}
