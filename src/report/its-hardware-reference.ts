/**
 * Reference measurements for the ITS page: warp exits per entry of the its-shapes raygen shapes,
 * measured on a real NVIDIA H100 (driver 580, hand-instrumented raygen with CreateWarpId and
 * WarpUpdate at entry, around each traceRay and at exit; 2D launches, 32-lane warps; issue 15).
 * They are hardware results to compare with, shown beside the run's own figure, never computed here.
 */
export const H100_ITS_EXITS_PER_ENTRY: readonly { shape: number; raygen: string; exitsPerEntry: number }[] = [
  { shape: 0, raygen: 'every lane traces', exitsPerEntry: 1.0 },
  { shape: 1, raygen: 'if ((x & 1) == 0) traceRay', exitsPerEntry: 2.0 },
  { shape: 2, raygen: 'loop of x & 3 traceRays (trip counts 0..3 in one warp)', exitsPerEntry: 4.0 },
  { shape: 3, raygen: 'the same if, ALU work instead of traceRay', exitsPerEntry: 1.0 },
  { shape: 4, raygen: 'second traceRay only for lanes whose first ray hit', exitsPerEntry: 1.08 },
  { shape: 5, raygen: 'if/else, each side with its own traceRay', exitsPerEntry: 2.0 },
];
