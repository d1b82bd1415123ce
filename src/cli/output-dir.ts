/**
 * Writes a run's output directory all at once: files go to a sibling staging directory that is
 * renamed into place only when every file was written, so a failed run never leaves a
 * half-written output (an existing directory of the same name is replaced only then).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export class OutputDir {
  readonly finalPath: string;
  readonly stagingPath: string;

  constructor(path: string) {
    this.finalPath = resolve(path);
    this.stagingPath = `${this.finalPath}.partial-${process.pid}`;
    rmSync(this.stagingPath, { recursive: true, force: true });
    mkdirSync(this.stagingPath, { recursive: true });
  }

  write(name: string, data: string | Uint8Array): void {
    const p = join(this.stagingPath, name);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, data);
  }

  commit(): string {
    if (existsSync(this.finalPath)) rmSync(this.finalPath, { recursive: true, force: true });
    renameSync(this.stagingPath, this.finalPath);
    return this.finalPath;
  }

  abandon(): void {
    rmSync(this.stagingPath, { recursive: true, force: true });
  }
}
