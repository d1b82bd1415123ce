/**
 * workloads/tri: one primary ray per pixel; the closest hit shades the triangle by its
 * barycentrics (half intensity on the back face), a miss draws the sky gradient.
 */
import { fr, mix, normalize, type Vec3 } from './f32-vector.js';
import { primaryRay } from './camera.js';
import { HIT_KIND, RAY_FLAG, traceScene } from './scene-query.js';
import { storePixel, type RenderContext } from './render-context.js';

export function skyGradient(direction: Vec3): Vec3 {
  const d = normalize(direction);
  const t = fr(0.5 * fr(d[1] + 1));
  return mix([1, 1, 1], [0.5, 0.7, 1].map(fr) as Vec3, t);
}

export function traceTri(ctx: RenderContext): void {
  const { width, height } = ctx.params;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const ray = primaryRay(ctx.camera, x, y, width, height, [0.5, 0.5]);
      const hit = traceScene(ctx.as, ctx.count, ray.origin, ray.direction, 0.001, 10000, RAY_FLAG.opaque);
      let c: Vec3;
      if (hit) {
        const bary: Vec3 = [fr(fr(1 - hit.u) - hit.v), hit.u, hit.v];
        c = hit.hitKind === HIT_KIND.frontFacingTriangle ? bary : [fr(0.5 * bary[0]), fr(0.5 * bary[1]), fr(0.5 * bary[2])];
      } else {
        c = skyGradient(ray.direction);
      }
      storePixel(ctx, x, y, c[0], c[1], c[2]);
    }
  }
}
