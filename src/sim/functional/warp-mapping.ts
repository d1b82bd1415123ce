/**
 * Launch-to-warp mappings of ray tracing launches (launch.ts places the lanes) and NVIDIA
 * hardware's behaviour by one name. Kept free of imports so the CLI's option parsing can load it.
 */
/** Launch-to-warp mapping of RT stages (launch.ts's file comment). */
export type LaunchMapping = 'rows' | 'tiles4x8' | 'nvidia';
export const LAUNCH_MAPPINGS: readonly LaunchMapping[] = ['rows', 'tiles4x8', 'nvidia'];

/**
 * The warp tile NVIDIA GPUs use for a ray tracing launch of this height (width x height in
 * pixels, 32 lanes), as measured on an H100 (driver 580; docs/device.md, mapping probes at 37 x H
 * for H = 1, 2, 3, 4, 6, 8, 12, 16): 16x2 up to height 2, 8x4 up to height 4, then 4x8, and 8x4
 * when the height is a multiple of 4 but not of 8. Tiles cut by the image's edge leave their
 * warps partly empty (height 1: 16 threads per warp; width 37: a last column of 5 or 1).
 * Issue 21 expected 32x1 at height 1; the H100 runs 16x2 there.
 */
export function nvidiaTile(height: number): [number, number] {
  if (height <= 2) return [16, 2];
  if (height <= 4) return [8, 4];
  if (height % 8 !== 0 && height % 4 === 0) return [8, 4];
  return [4, 8];
}

/** Tile width and height of one warp under `mapping` for a launch `height` pixels tall. */
export function warpTile(mapping: LaunchMapping | undefined, height: number): [number, number] {
  if (mapping === 'tiles4x8') return [4, 8];
  if (mapping === 'nvidia') return nvidiaTile(height);
  return [32, 1];
}

/**
 * NVIDIA hardware's behaviour by one name (issue 21 item 4; measured on an H100, docs/device.md):
 * its launch-to-warp tiles (`mapping: 'nvidia'`) and independent thread scheduling with
 * convergence barriers as its compiler places them (none across a traceRay). Spread it into run
 * options: `simulate(w, { ...NVIDIA_BEHAVIOUR })`; CLI `--nvidia`.
 */
export const NVIDIA_BEHAVIOUR = { mapping: 'nvidia', its: true, itsPolicy: 'barriers' } as const;
