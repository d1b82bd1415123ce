/**
 * Runs one job in this thread: the spec's simulation, its figures as a JobResult. Backends call
 * this (the worker thread does; a cluster job would too).
 */
import { simulateWorkload } from '../simulate-workload.js';
import { decodePixelMask, jobId, type SimJobSpec } from './job-spec.js';
import type { JobResult } from './job-store.js';
import { threadCpuSeconds } from '../../platform/thread-cpu.js';

export type JobProgress = (fraction: number) => void;

export async function runSimJob(spec: SimJobSpec, onProgress?: JobProgress): Promise<JobResult> {
  const t0 = performance.now();
  const c0 = threadCpuSeconds();
  const r = await simulateWorkload(spec.workload, {
    ...spec.run,
    config: spec.config,
    overrides: spec.overrides,
    ...(spec.pixelMask !== undefined ? { pixelMask: decodePixelMask(spec.pixelMask) } : {}),
    ...(onProgress ? { onProgress: (_c: number, done: number, total: number) => onProgress(total > 0 ? done / total : 0) } : {}),
  });
  const values: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.stats.values)) if (typeof v === 'number') values[k] = v;
  const { width, height, spp } = r.prepared.params;
  return { id: jobId(spec), values, wallSeconds: (performance.now() - t0) / 1000, cpuSeconds: threadCpuSeconds() - c0, params: { width, height, spp } };
}
