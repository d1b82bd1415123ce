/**
 * workloads/ao: a primary ray finds the visible point; the closest-hit shader returns its
 * position and the face-forward geometric normal (octahedral f16 encoded); the raygen shader
 * then traces AO_RAY_COUNT cosine-distributed occlusion rays (terminate on first hit, skip
 * closest hit, length `radius`) along a Cranley-Patterson shifted Hammersley set, and stores
 * 1 - occluded / count. A missed pixel stores black, the same with or without its warp's hits.
 */
import { add, dot, faceforward, normalize, rowVectorTimes, scale, type Vec3 } from './f32-vector.js';
import { primaryRay } from './camera.js';
import { RAY_FLAG, traceScene } from './scene-query.js';
import { initRandom, rnd2 } from './random.js';
import { hammersley, sampleHemisphere } from './sampling.js';
import { offsetRay } from './offset-ray.js';
import { encodeDecodeNormal } from './normal-encoding.js';
import { concatenatedTriangle, geometricNormal, vertexPosition } from './triangle-mesh.js';
import { pushConstant, specConstant, storePixel, type RenderContext } from './render-context.js';

export function traceAo(ctx: RenderContext): void {
  const { width, height } = ctx.params;
  const radius = Math.fround(pushConstant(ctx, 'radius'));
  const seed = pushConstant(ctx, 'seed') >>> 0;
  const rayCount = specConstant(ctx, 0, 8);
  const occlusionFlags = RAY_FLAG.terminateOnFirstHit | RAY_FLAG.skipClosestHitShader | RAY_FLAG.opaque;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const ray = primaryRay(ctx.camera, x, y, width, height, [0.5, 0.5]);
      const hit = traceScene(ctx.as, ctx.count, ray.origin, ray.direction, 0.001, 10000, RAY_FLAG.opaque);
      if (!hit) {
        storePixel(ctx, x, y, 0, 0, 0);
        continue;
      }
      // Closest-hit shader.
      const { mesh, triangle } = concatenatedTriangle(ctx.scene, hit.primitiveIndex);
      const p0 = vertexPosition(mesh, mesh.indices[3 * triangle]!);
      const p1 = vertexPosition(mesh, mesh.indices[3 * triangle + 1]!);
      const p2 = vertexPosition(mesh, mesh.indices[3 * triangle + 2]!);
      const worldNormal = normalize(rowVectorTimes(geometricNormal(p0, p1, p2), hit.worldToObject));
      const position = add(ray.origin, scale(ray.direction, hit.t));
      const normal = encodeDecodeNormal(faceforward(worldNormal, ray.direction, worldNormal));

      // Raygen: the occlusion loop.
      const rng = initRandom(x, y, width, 0, seed);
      const shift = rnd2(rng);
      const start = offsetRay(position, normal);
      let occluded = 0;
      for (let i = 0; i < rayCount; i++) {
        const dir: Vec3 = sampleHemisphere(hammersley(i, rayCount, shift), normal);
        if (dot(dir, normal) <= 0) continue;
        if (traceScene(ctx.as, ctx.count, start, dir, 0, radius, occlusionFlags)) occluded = Math.fround(occluded + 1);
      }
      const visibility = Math.fround(1 - Math.fround(occluded / rayCount));
      storePixel(ctx, x, y, visibility, visibility, visibility);
    }
  }
}
