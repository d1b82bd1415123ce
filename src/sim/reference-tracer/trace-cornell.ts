/**
 * workloads/cornell: path tracer with next-event estimation on the Cornell box OBJ. Raygen draws
 * the jitter and runs the bounce loop; the closest-hit port samples the area light (one shadow
 * ray, terminate on first hit) and continues with a cosine-weighted bounce; an emitter ends the
 * path and counts only when seen directly. Random numbers are drawn in the shaders' order:
 * jitter (2), then per non-emissive hit the light sample (2) and the bounce (2).
 */
import {
  add, cross, dot, faceforward, fr, isFiniteVec, length, mul, normalize, rowVectorTimes, scale, sub, type Vec3,
} from './f32-vector.js';
import { primaryRay } from './camera.js';
import { RAY_FLAG, traceScene } from './scene-query.js';
import { initRandom, rnd2, type RandomState } from './random.js';
import { sampleHemisphere } from './sampling.js';
import { offsetRay } from './offset-ray.js';
import { geometricNormal, instanceMesh, vertexPosition } from './triangle-mesh.js';
import { pushConstant, storePixel, uniformValue, ReferenceTracerError, type RenderContext } from './render-context.js';

const PI = fr(3.14159265358979323846);

interface AreaLight {
  corner: Vec3;
  edgeU: Vec3;
  edgeV: Vec3;
  radiance: Vec3;
}

function vec3Of(ctx: RenderContext, v: unknown, key: string): Vec3 {
  if (!Array.isArray(v) || v.length < 3 || !v.every((x) => typeof x === 'number')) {
    throw new ReferenceTracerError(`${ctx.manifest.path}: AreaLight.${key}: expected an array of numbers`);
  }
  return [fr(v[0]), fr(v[1]), fr(v[2])];
}

/** GLSL 1 - exp(-c * exposure), clamped, to the power 1/2.2 (color.glsl toneMap). */
export function toneMap(c: number, exposure: number): number {
  const mapped = fr(1 - fr(Math.exp(fr(-c * exposure))));
  return fr(Math.pow(Math.min(Math.max(mapped, 0), 1), fr(1 / fr(2.2))));
}

export function traceCornell(ctx: RenderContext): void {
  const { width, height } = ctx.params;
  const frame = pushConstant(ctx, 'frame') >>> 0;
  const samples = pushConstant(ctx, 'samples') >>> 0;
  const maxDepth = pushConstant(ctx, 'maxDepth') >>> 0;
  const seed = pushConstant(ctx, 'seed') >>> 0;
  const exposure = fr(pushConstant(ctx, 'exposure'));
  const emissionScale = fr(pushConstant(ctx, 'emissionScale'));
  const lightValue = uniformValue(ctx, 0, 10);
  const light: AreaLight = {
    corner: vec3Of(ctx, lightValue['corner'], 'corner'),
    edgeU: vec3Of(ctx, lightValue['edgeU'], 'edgeU'),
    edgeV: vec3Of(ctx, lightValue['edgeV'], 'edgeV'),
    radiance: vec3Of(ctx, lightValue['radiance'], 'radiance'),
  };
  const lightCross = cross(light.edgeU, light.edgeV);
  const lightN = normalize(lightCross);
  const lightArea = length(lightCross);
  const shadowFlags = RAY_FLAG.terminateOnFirstHit | RAY_FLAG.opaque | RAY_FLAG.skipClosestHitShader;

  const sampleAreaLight = (x: Vec3, n: Vec3, albedo: Vec3, u: [number, number]): Vec3 => {
    const y = add(add(light.corner, scale(light.edgeU, u[0])), scale(light.edgeV, u[1]));
    let toY = sub(y, x);
    const dist2 = dot(toY, toY);
    const dist = fr(Math.sqrt(dist2));
    toY = [fr(toY[0] / dist), fr(toY[1] / dist), fr(toY[2] / dist)];
    const cosX = dot(n, toY);
    const cosY = dot(lightN, [-toY[0], -toY[1], -toY[2]]); // one-sided light: emits downward only
    if (cosX <= 0 || cosY <= 0) return [0, 0, 0];
    if (traceScene(ctx.as, ctx.count, offsetRay(x, n), toY, 0, fr(dist * fr(0.999)), shadowFlags)) return [0, 0, 0];
    const le = scale(light.radiance, emissionScale);
    // le * (albedo / M_PI) * cosX * cosY * area / dist2, evaluated left to right.
    const brdf: Vec3 = [fr(albedo[0] / PI), fr(albedo[1] / PI), fr(albedo[2] / PI)];
    const v = scale(scale(scale(mul(le, brdf), cosX), cosY), lightArea);
    return [fr(v[0] / dist2), fr(v[1] / dist2), fr(v[2] / dist2)];
  };

  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      let radiance: Vec3 = [0, 0, 0];
      for (let s = 0; s < samples; s++) {
        const rng: RandomState = initRandom(px, py, width, (Math.imul(frame, samples) + s) >>> 0, seed);
        const ray = primaryRay(ctx.camera, px, py, width, height, rnd2(rng));
        let origin = ray.origin;
        let direction = ray.direction;
        let throughput: Vec3 = [1, 1, 1];
        let sampleRadiance: Vec3 = [0, 0, 0];
        for (let depth = 0; depth < maxDepth; depth++) {
          const hit = traceScene(ctx.as, ctx.count, origin, direction, 0.0001, 100, RAY_FLAG.opaque);
          if (!hit) break; // miss: emitted 0, done
          // Closest-hit shader.
          const mesh = instanceMesh(ctx.scene, hit.instanceCustomIndex + hit.geometryIndex);
          const t = hit.primitiveIndex;
          const p0 = vertexPosition(mesh, mesh.indices[3 * t]!);
          const p1 = vertexPosition(mesh, mesh.indices[3 * t + 1]!);
          const p2 = vertexPosition(mesh, mesh.indices[3 * t + 2]!);
          let normal = normalize(rowVectorTimes(geometricNormal(p0, p1, p2), hit.worldToObject));
          normal = faceforward(normal, direction, normal);
          const material = ctx.scene.materials[mesh.materialIds[t]!]!;
          const worldPosition = add(origin, scale(direction, hit.t));
          const emission: Vec3 = [fr(material.ke[0]), fr(material.ke[1]), fr(material.ke[2])];
          if (emission[0] > 0 || emission[1] > 0 || emission[2] > 0) {
            if (depth === 0) sampleRadiance = add(sampleRadiance, mul(throughput, scale(emission, emissionScale)));
            break;
          }
          const albedo: Vec3 = [fr(material.kd[0]), fr(material.kd[1]), fr(material.kd[2])];
          const emitted = sampleAreaLight(worldPosition, normal, albedo, rnd2(rng));
          const nextDirection = sampleHemisphere(rnd2(rng), normal);
          const nextOrigin = offsetRay(worldPosition, normal);
          // Raygen loop body.
          sampleRadiance = add(sampleRadiance, mul(throughput, emitted));
          throughput = mul(throughput, albedo);
          origin = nextOrigin;
          direction = nextDirection;
        }
        radiance = add(radiance, sampleRadiance);
      }
      radiance = [fr(radiance[0] / Math.max(samples, 1)), fr(radiance[1] / Math.max(samples, 1)), fr(radiance[2] / Math.max(samples, 1))];
      if (!isFiniteVec(radiance)) radiance = [0, 0, 0];
      // Running mean over frames from a fresh accumulation image (before = 0 in every frame).
      const average = radiance.map((c) => fr(c / fr(frame + 1)));
      storePixel(ctx, px, py, toneMap(average[0]!, exposure), toneMap(average[1]!, exposure), toneMap(average[2]!, exposure));
    }
  }
}
