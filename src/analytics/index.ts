/**
 * The public analytics API (pure functions: dump + metadata in, results out). Re-exports only.
 */
export * from './dump-reader.js';
export * from './metadata-reader.js';
export * from './simt-efficiency.js';
export * from './divergence-characterization.js';
export * from './traceray-executions.js';
export * from './thread-compaction.js';
export * from './thread-paths.js';
export * from './hotspots.js';
export * from './execution-traces.js';
export * from './lifetimes.js';
export * from './its-evidence.js';
export * from './work-heatmap.js';
export * from './dump-entries.js';
export * from './annotate-source.js';
export * from './vvision-data-files.js';
export { AnalysisInputError } from './site-table.js';
export { warpIdentity, type WarpIdentity } from './warp-identity.js';
