/**
 * Test fixture: render a workload with the functional simulator and with the reference tracer
 * on the same manifest, scene and run parameters, and compare them pixel by pixel in the output
 * image's storage precision (rgba8: the reference value quantised as unorm8).
 */
import { runWorkload } from '../../../src/driver/run-workload.js';
import { readTexel } from '../../../src/sim/functional/images.js';
import { buildAccelerationStructure } from '../../../src/sim/rt/acceleration-structure.js';
import { loadScene } from '../../../src/sim/host/load-scene.js';
import { referenceRender, quantizeUnorm8, type ReferenceWorkload } from '../../../src/sim/reference-tracer/index.js';

export interface Comparison {
  width: number;
  height: number;
  /** Simulator and reference, 0..255 per channel, RGB interleaved. */
  sim: Uint8Array;
  ref: Uint8Array;
  matching: number;
  total: number;
  /** Largest per-channel difference over all pixels. */
  maxDiff: number;
  mismatches: { x: number; y: number; sim: number[]; ref: number[] }[];
  refRays: number;
  simRays: number;
}

export async function compareWithSimulator(
  workload: ReferenceWorkload, params: { width: number; height: number; spp?: number; seed?: number; bounces?: number }, tolerance = 2,
): Promise<Comparison> {
  const run = await runWorkload(workload, params);
  const scene = await loadScene(run.manifest.scene, run.manifest.path);
  const as = buildAccelerationStructure(scene);
  const ref = referenceRender(workload, run.manifest, scene, as, run.params);
  const { width, height } = run.params;
  const img = run.image!;
  const texel = new Float64Array(4);
  const simBytes = new Uint8Array(width * height * 3);
  const refBytes = new Uint8Array(width * height * 3);
  let matching = 0;
  let maxDiff = 0;
  const mismatches: Comparison['mismatches'] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      readTexel(img, 0, x, y, 0, 0, texel);
      let worst = 0;
      const s: number[] = [];
      const r: number[] = [];
      for (let c = 0; c < 3; c++) {
        const sv = Math.round(texel[c]! * 255);
        const rv = quantizeUnorm8(ref.rgba[4 * (y * width + x) + c]!);
        simBytes[3 * (y * width + x) + c] = sv;
        refBytes[3 * (y * width + x) + c] = rv;
        s.push(sv);
        r.push(rv);
        worst = Math.max(worst, Math.abs(sv - rv));
      }
      maxDiff = Math.max(maxDiff, worst);
      if (worst <= tolerance) matching++;
      else mismatches.push({ x, y, sim: s, ref: r });
    }
  }
  return { width, height, sim: simBytes, ref: refBytes, matching, total: width * height, maxDiff, mismatches, refRays: ref.rays, simRays: run.rt.rays };
}

/** Mean of one channel (0..255) of an RGB byte image. */
export function channelMean(rgb: Uint8Array, channel: number): number {
  let s = 0;
  for (let i = channel; i < rgb.length; i += 3) s += rgb[i]!;
  return s / (rgb.length / 3);
}
