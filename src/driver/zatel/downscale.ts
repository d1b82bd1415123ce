/**
 * GPU downscaling (paper 004, Sec. III-C): K = gcd(SMs, memory partitions); each group runs on a
 * GPU with SMs / K SMs and partitions / K memory partitions. L2 slices and DRAM channels live in
 * the partitions, so L2 capacity and DRAM bandwidth shrink with them; everything per SM (L1, RT
 * unit, warps) is unchanged.
 *
 * DRAM rows (`dramRows`, default 'target'): the address mapping deals consecutive chunks over the
 * channels (`dramid@8`: 256 B), so with 1/K of the channels a group's DRAM row would hold K times
 * the neighbouring chunks a row of the target holds, and find its row open far more often than
 * the target does (docs/zatel.md). 'target' keeps the target's row layout in the downscaled GPU
 * (zatel_target_n_mem = the target's channels, address-map.ts): a row holds the addresses a row
 * of one target channel holds. 'own' is the paper's downscaling (only gpgpu_n_clusters and
 * gpgpu_n_mem change), as Vulkan-Sim with -gpgpu_n_mem divided by K decodes addresses.
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

/** The downscaled GPU's DRAM row layout: the target's (default) or its own (the paper's). */
export type DramRows = 'target' | 'own';

export function downscale(config: GpuConfig, k?: number, dramRows: DramRows = 'target'): Downscaling {
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
  const overrides = [`gpgpu_n_clusters=${sms / chosen}`, 'gpgpu_n_cores_per_cluster=1', `gpgpu_n_mem=${partitions / chosen}`];
  // A target that is itself a scale model keeps its own target's layout (its zatel_target_n_mem stands).
  if (dramRows === 'target' && chosen > 1 && config.addressMapping.rowLayoutChannels === 0) overrides.push(`zatel_target_n_mem=${partitions}`);
  return { k: chosen, sms: sms / chosen, partitions: partitions / chosen, overrides };
}
