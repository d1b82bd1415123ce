/**
 * GPU downscaling (paper 004, Sec. III-C): K = gcd(SMs, memory partitions); each group runs on a
 * GPU with SMs / K SMs and partitions / K memory partitions. L2 slices and DRAM channels live in
 * the partitions, so L2 capacity and DRAM bandwidth shrink with them; everything per SM (L1, RT
 * unit, warps) is unchanged.
 */
import type { GpuConfig } from '../../sim/timing/index.js';

export class ZatelOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZatelOptionError';
  }
}

export function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

export interface Downscaling {
  k: number;
  sms: number;
  partitions: number;
  /** Knob overrides that turn the target config into the downscaled one (appended after the user's). */
  overrides: string[];
}

export function downscale(config: GpuConfig, k?: number): Downscaling {
  const sms = config.numSms;
  const partitions = config.numMemChannels;
  const g = gcd(sms, partitions);
  const chosen = k ?? g;
  if (!(Number.isInteger(chosen) && chosen >= 1)) throw new ZatelOptionError(`--k must be a positive integer, got ${k}`);
  if (sms % chosen !== 0 || partitions % chosen !== 0) {
    throw new ZatelOptionError(
      `--k ${chosen} does not divide both the ${sms} SMs and the ${partitions} memory partitions of the configuration (gcd ${g}; use a divisor of ${g})`,
    );
  }
  return {
    k: chosen, sms: sms / chosen, partitions: partitions / chosen,
    overrides: [`gpgpu_n_clusters=${sms / chosen}`, 'gpgpu_n_cores_per_cluster=1', `gpgpu_n_mem=${partitions / chosen}`],
  };
}
