/**
 * The ray intersection predictor's configuration (paper 002), as the timing model reads it from
 * the `gpgpu_rt_predictor*` parameters (params.ts holds each one's default and paper section).
 */

export type ReplacementPolicy = 'lru' | 'lfu' | 'lru-k';
export type RayHashFunction = 'grid-spherical' | 'two-point';
/**
 * Limit studies of Sec. 6.3: oracle lookup (OL), oracle training (OT), oracle update (OU); and
 * `never`, a control of this simulator's own: every ray goes through the lookup and update queues
 * but none is predicted, which isolates what the lookup pipeline costs.
 */
export type PredictorOracle = 'none' | 'lookup' | 'training' | 'update' | 'never';

export interface RayHashParams {
  fn: RayHashFunction;
  /** n: bits per origin axis. */
  originBits: number;
  /** m: bits of theta (phi gets m + 1). */
  directionBits: number;
  /** r: estimated length ratio of Two Point. */
  twoPointRatio: number;
}

export interface PredictorConfig {
  enabled: boolean;
  entries: number;
  ways: number;
  nodesPerEntry: number;
  tagBits: number;
  entryReplacement: ReplacementPolicy;
  nodeReplacement: ReplacementPolicy;
  hash: RayHashParams;
  goUpLevel: number;
  ports: number;
  latency: number;
  repack: boolean;
  collectorSize: number;
  collectorTimeout: number;
  extraWarps: number;
  oracle: PredictorOracle;
  closestHit: boolean;
}
