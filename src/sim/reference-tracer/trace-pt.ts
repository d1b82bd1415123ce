/**
 * workloads/pt: the "Ray Tracing in One Weekend" path tracer on the procedural sphere scene.
 * Spheres are AABB primitives; the sphere intersection shader's logic runs on each traversal
 * candidate (hitSphere with the current tmax), the closest-hit port scatters by material
 * (lambertian / metal / dielectric / emissive) and the raygen loop follows the path for up to
 * `bounces` segments. Random draws follow the shaders' order (jitter, then one rejection loop or
 * one rnd per scatter).
 */
import {
  add, dot, fr, isFiniteVec, mix, mul, neg, normalize, reflect, refract, scale, sub, transformDirection, type Vec3,
} from './f32-vector.js';
import { primaryRay } from './camera.js';
import { RAY_FLAG, traceScene, type IntersectProcedural } from './scene-query.js';
import { initRandom, rnd, rnd2, rndFast, type RandomState } from './random.js';
import { pushConstant, storePixel, ReferenceTracerError, type RenderContext } from './render-context.js';
import { MATERIAL_TYPE_CODE, type Scene } from '../rt/scene.js';
import { skyGradient } from './trace-tri.js';

interface Sphere {
  center: Vec3;
  radius: number;
  material: number;
}

interface WkndMaterial {
  diffuse: Vec3;
  type: number;
  fuzz: number;
  ior: number;
}

/** The sphere buffer as packed (scene-records.ts 'spheres'): sphere procedurals in order. */
function sphereTable(scene: Scene): Sphere[] {
  const out: Sphere[] = [];
  for (const p of scene.procedurals) {
    if (p.kind !== 'sphere') continue;
    for (let i = 0; i < p.materialIds.length; i++) {
      out.push({ center: [p.params[4 * i]!, p.params[4 * i + 1]!, p.params[4 * i + 2]!], radius: p.params[4 * i + 3]!, material: p.materialIds[i]! });
    }
  }
  return out;
}

function materialTable(scene: Scene): WkndMaterial[] {
  return scene.materials.map((m) => {
    const emissive = m.ke[0] > 0 || m.ke[1] > 0 || m.ke[2] > 0;
    const code = MATERIAL_TYPE_CODE[m.type];
    return {
      diffuse: [fr(m.kd[0]), fr(m.kd[1]), fr(m.kd[2])],
      type: code === 4 ? 0 : emissive ? 3 : code,
      fuzz: fr(m.roughness),
      ior: fr(m.ior),
    };
  });
}

/** procedural.glsl hitSphere: nearest root in (tMin, tMax), else the far root, else -1. */
export function hitSphere(s: Sphere, origin: Vec3, direction: Vec3, tMin: number, tMax: number): number {
  const oc = sub(origin, s.center);
  const a = dot(direction, direction);
  const halfB = dot(oc, direction);
  const c = fr(dot(oc, oc) - fr(s.radius * s.radius));
  const discriminant = fr(fr(halfB * halfB) - fr(a * c));
  if (discriminant < 0) return -1;
  const sqrtD = fr(Math.sqrt(discriminant));
  let root = fr(fr(-halfB - sqrtD) / a);
  if (root <= tMin || root >= tMax) {
    root = fr(fr(-halfB + sqrtD) / a);
    if (root <= tMin || root >= tMax) return -1;
  }
  return root;
}

function randomInUnitSphere(rng: RandomState): Vec3 {
  for (;;) {
    const x = rndFast(rng);
    const y = rndFast(rng);
    const z = rndFast(rng);
    const p: Vec3 = [fr(fr(2 * x) - 1), fr(fr(2 * y) - 1), fr(fr(2 * z) - 1)];
    if (dot(p, p) < 1) return p;
  }
}

function schlick(cosine: number, ior: number): number {
  let r0 = fr(fr(1 - ior) / fr(1 + ior));
  r0 = fr(r0 * r0);
  return fr(r0 + fr(fr(1 - r0) * fr(Math.pow(fr(1 - cosine), 5))));
}

interface Scatter {
  attenuation: Vec3;
  direction: Vec3;
  scattered: boolean;
}

/** materials.glsl scatter(): the direction is normalized first, as the shader does. */
function scatter(m: WkndMaterial, rawDirection: Vec3, normal: Vec3, rng: RandomState): Scatter {
  const direction = normalize(rawDirection);
  switch (m.type) {
    case 0: {
      const isScattered = dot(direction, normal) < 0;
      const target = add(normal, randomInUnitSphere(rng));
      return { attenuation: m.diffuse, direction: dot(target, target) < fr(1e-8) ? normal : target, scattered: isScattered };
    }
    case 1: {
      const reflected = reflect(direction, normal);
      const scattered = add(reflected, scale(randomInUnitSphere(rng), m.fuzz));
      return { attenuation: m.diffuse, direction: scattered, scattered: dot(scattered, normal) > 0 };
    }
    case 2: {
      const dotDN = dot(direction, normal);
      const outwardNormal = dotDN > 0 ? neg(normal) : normal;
      const niOverNt = dotDN > 0 ? m.ior : fr(1 / m.ior);
      const cosine = dotDN > 0 ? fr(m.ior * dotDN) : -dotDN;
      const refracted = refract(direction, outwardNormal, niOverNt);
      const isRefracted = refracted[0] !== 0 || refracted[1] !== 0 || refracted[2] !== 0;
      const reflectProb = isRefracted ? schlick(cosine, m.ior) : 1;
      const next = rnd(rng) < reflectProb ? reflect(direction, normal) : refracted;
      return { attenuation: [1, 1, 1], direction: next, scattered: true };
    }
    case 3:
      return { attenuation: m.diffuse, direction: [0, 0, 0], scattered: false };
    default:
      return { attenuation: [0, 0, 0], direction: [0, 0, 0], scattered: false };
  }
}

export function tracePt(ctx: RenderContext): void {
  const { width, height } = ctx.params;
  const frame = pushConstant(ctx, 'frame') >>> 0;
  const samples = pushConstant(ctx, 'samples') >>> 0;
  const bounces = pushConstant(ctx, 'bounces') >>> 0;
  const seed = pushConstant(ctx, 'seed') >>> 0;
  const exposure = fr(pushConstant(ctx, 'exposure'));
  const spheres = sphereTable(ctx.scene);
  const materials = materialTable(ctx.scene);

  const intersectSphere: IntersectProcedural = (c, o, d, tmin, tmax) => {
    const sphere = spheres[c.instanceCustomIndex + c.primitiveIndex];
    if (!sphere) throw new ReferenceTracerError(`sphere ${c.instanceCustomIndex + c.primitiveIndex} is beyond the sphere buffer`);
    const t = hitSphere(sphere, o, d, tmin, tmax);
    if (t < 0) return undefined;
    const p = add(o, scale(d, t));
    const n = sub(p, sphere.center);
    return { t, attributes: [fr(n[0] / sphere.radius), fr(n[1] / sphere.radius), fr(n[2] / sphere.radius)] };
  };

  const tracePath = (origin: Vec3, direction: Vec3, rng: RandomState): Vec3 => {
    let color: Vec3 = [1, 1, 1];
    for (let b = 0; b <= bounces; b++) {
      if (b === bounces) return [0, 0, 0];
      const hit = traceScene(ctx.as, ctx.count, origin, direction, 0.001, 10000, RAY_FLAG.none, intersectSphere);
      if (!hit) return mul(color, skyGradient(direction));
      const sphere = spheres[hit.instanceCustomIndex + hit.primitiveIndex]!;
      const normal = normalize(transformDirection(hit.objectToWorld, hit.attributes!));
      const s = scatter(materials[sphere.material]!, direction, normal, rng);
      color = mul(color, s.attenuation);
      if (!s.scattered) break;
      origin = add(origin, scale(direction, hit.t));
      direction = s.direction;
    }
    return color;
  };

  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      let pixel: Vec3 = [0, 0, 0];
      for (let s = 0; s < samples; s++) {
        const rng = initRandom(px, py, width, (Math.imul(frame, samples) + s) >>> 0, seed);
        const ray = primaryRay(ctx.camera, px, py, width, height, rnd2(rng));
        pixel = add(pixel, tracePath(ray.origin, ray.direction, rng));
      }
      const n = Math.max(samples, 1);
      pixel = [fr(pixel[0] / n), fr(pixel[1] / n), fr(pixel[2] / n)];
      if (!isFiniteVec(pixel)) pixel = [0, 0, 0];
      const average = mix([0, 0, 0], pixel, fr(1 / (frame + 1)));
      const shown = average.map((c) => fr(Math.sqrt(Math.min(Math.max(fr(c * exposure), 0), 1))));
      storePixel(ctx, px, py, shown[0]!, shown[1]!, shown[2]!);
    }
  }
}
