/**
 * A folder of jobs on disk: `jobs/<id>/spec.json`, and once run `result.json` (or `error.txt`).
 * Every file is written to a temporary name and renamed into place, so a reader (another
 * process, a later resume, a cluster node) never sees half a file, and a killed run leaves only
 * whole results behind.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { jobId, type SimJobSpec } from './job-spec.js';

/** What a job leaves: the timing model's figures and how long it took. */
export interface JobResult {
  id: string;
  /** Every stat of the run, by its Vulkan-Sim name (gpu_sim_cycle, gpu_ipc, ...). */
  values: Record<string, number>;
  wallSeconds: number;
  /**
   * CPU seconds of the thread that ran it (threadCpuSeconds): on a shared machine the steadier
   * cost; absent in results written before it was recorded.
   */
  cpuSeconds?: number;
  /** The run's resolved size (the manifest's defaults filled in). */
  params: { width: number; height: number; spp: number };
}

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

export class JobStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  jobDir(id: string): string {
    return join(this.dir, 'jobs', id);
  }

  /** Records the spec (once) and returns its id. */
  add(spec: SimJobSpec): string {
    const id = jobId(spec);
    const d = this.jobDir(id);
    if (!existsSync(join(d, 'spec.json'))) {
      mkdirSync(d, { recursive: true });
      writeFileAtomic(join(d, 'spec.json'), `${JSON.stringify(spec, null, 2)}\n`);
    }
    return id;
  }

  spec(id: string): SimJobSpec {
    return JSON.parse(readFileSync(join(this.jobDir(id), 'spec.json'), 'utf8')) as SimJobSpec;
  }

  result(id: string): JobResult | undefined {
    const p = join(this.jobDir(id), 'result.json');
    if (!existsSync(p)) return undefined;
    try {
      return JSON.parse(readFileSync(p, 'utf8')) as JobResult;
    } catch {
      return undefined; // unreadable: treated as not done, so it is rerun
    }
  }

  failure(id: string): string | undefined {
    const p = join(this.jobDir(id), 'error.txt');
    return existsSync(p) ? readFileSync(p, 'utf8').trim() : undefined;
  }

  writeResult(result: JobResult): void {
    const d = this.jobDir(result.id);
    rmSync(join(d, 'error.txt'), { force: true });
    writeFileAtomic(join(d, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
  }

  clearFailure(id: string): void {
    rmSync(join(this.jobDir(id), 'error.txt'), { force: true });
  }

  writeFailure(id: string, message: string): void {
    writeFileAtomic(join(this.jobDir(id), 'error.txt'), `${message}\n`);
  }

  /** Ids among `ids` that have no result yet (failed ones included: a rerun retries them). */
  pending(ids: readonly string[]): string[] {
    return ids.filter((id) => this.result(id) === undefined);
  }
}
