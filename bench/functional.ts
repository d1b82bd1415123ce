/**
 * Functional-core throughput: thread instructions per second on a compute shader doing ray-sphere
 * math (primary rays against N spheres from a storage buffer, Lambert shading, one shadow ray),
 * compiled from GLSL by the front end, against the same algorithm written as plain TypeScript.
 * Then the built-in `pt` workload (lowered RT pipeline, RT runtime, BVH traversal) on both engines.
 * Prints numbers only; run with `npx tsx bench/functional.ts [width] [height] [ptSize]`.
 */
import { compileGlsl } from '../src/frontend/glsl/compile.js';
import { compileProgram } from '../src/sim/functional/program.js';
import { runFunctional } from '../src/sim/functional/launch.js';
import { prepareRun, launchOptionsOf } from '../src/driver/run-workload.js';

const SPHERES = 16;
const W = Number(process.argv[2] ?? 256);
const H = Number(process.argv[3] ?? 256);

const SHADER = `#version 460
layout(local_size_x = 32, local_size_y = 1) in;
struct Sphere { vec4 centerRadius; vec4 color; };
layout(std430, set = 0, binding = 0) readonly buffer Spheres { Sphere s[]; } scene;
layout(std430, set = 0, binding = 1) buffer Image { vec4 px[]; } img;
layout(push_constant) uniform Push { uint width; uint height; uint count; } pc;

float hitSphere(vec3 ro, vec3 rd, vec4 cr) {
  vec3 oc = ro - cr.xyz;
  float b = dot(oc, rd);
  float c = dot(oc, oc) - cr.w * cr.w;
  float h = b * b - c;
  if (h < 0.0) return -1.0;
  return -b - sqrt(h);
}

void main() {
  uvec2 p = gl_GlobalInvocationID.xy;
  if (p.x >= pc.width || p.y >= pc.height) return;
  vec2 uv = (vec2(p) + 0.5) / vec2(pc.width, pc.height) * 2.0 - 1.0;
  vec3 ro = vec3(0.0, 0.0, -5.0);
  vec3 rd = normalize(vec3(uv, 1.5));
  float best = 1e30;
  int hit = -1;
  for (uint i = 0u; i < pc.count; i++) {
    float t = hitSphere(ro, rd, scene.s[i].centerRadius);
    if (t > 0.0 && t < best) { best = t; hit = int(i); }
  }
  vec3 color = vec3(0.1, 0.1, 0.2);
  if (hit >= 0) {
    vec3 pos = ro + rd * best;
    vec3 n = normalize(pos - scene.s[hit].centerRadius.xyz);
    vec3 l = normalize(vec3(1.0, 1.0, -1.0));
    float shade = max(dot(n, l), 0.0);
    for (uint i = 0u; i < pc.count; i++) {
      if (int(i) != hit && hitSphere(pos + n * 0.001, l, scene.s[i].centerRadius) > 0.0) { shade *= 0.3; break; }
    }
    color = scene.s[hit].color.rgb * (0.2 + 0.8 * shade);
  }
  img.px[p.y * pc.width + p.x] = vec4(color, 1.0);
}
`;

function sceneData(): Float32Array {
  const d = new Float32Array(SPHERES * 8);
  let seed = 7;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  for (let i = 0; i < SPHERES; i++) {
    d.set([rnd() * 6 - 3, rnd() * 6 - 3, rnd() * 4, 0.3 + rnd() * 0.7, rnd(), rnd(), rnd(), 1], i * 8);
  }
  return d;
}

/** The same algorithm in plain TypeScript (doubles, no f32 rounding): the speed reference. */
function plainTs(spheres: Float32Array, out: Float32Array): void {
  const hitSphere = (ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, i: number): number => {
    const cx = ox - spheres[i * 8]!, cy = oy - spheres[i * 8 + 1]!, cz = oz - spheres[i * 8 + 2]!, r = spheres[i * 8 + 3]!;
    const b = cx * dx + cy * dy + cz * dz;
    const c = cx * cx + cy * cy + cz * cz - r * r;
    const h = b * b - c;
    return h < 0 ? -1 : -b - Math.sqrt(h);
  };
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const u = ((x + 0.5) / W) * 2 - 1, v = ((y + 0.5) / H) * 2 - 1;
      const len = Math.hypot(u, v, 1.5);
      const dx = u / len, dy = v / len, dz = 1.5 / len;
      let best = 1e30, hit = -1;
      for (let i = 0; i < SPHERES; i++) {
        const t = hitSphere(0, 0, -5, dx, dy, dz, i);
        if (t > 0 && t < best) { best = t; hit = i; }
      }
      let r = 0.1, g = 0.1, b = 0.2;
      if (hit >= 0) {
        const px = dx * best, py = dy * best, pz = -5 + dz * best;
        let nx = px - spheres[hit * 8]!, ny = py - spheres[hit * 8 + 1]!, nz = pz - spheres[hit * 8 + 2]!;
        const nl = Math.hypot(nx, ny, nz);
        nx /= nl; ny /= nl; nz /= nl;
        const k = 1 / Math.sqrt(3);
        let shade = Math.max(nx * k + ny * k - nz * k, 0);
        for (let i = 0; i < SPHERES; i++) {
          if (i !== hit && hitSphere(px + nx * 0.001, py + ny * 0.001, pz + nz * 0.001, k, k, -k, i) > 0) { shade *= 0.3; break; }
        }
        const s = 0.2 + 0.8 * shade;
        r = spheres[hit * 8 + 4]! * s; g = spheres[hit * 8 + 5]! * s; b = spheres[hit * 8 + 6]! * s;
      }
      const o = (y * W + x) * 4;
      out[o] = r; out[o + 1] = g; out[o + 2] = b; out[o + 3] = 1;
    }
  }
}

class Vec3 {
  constructor(readonly x: number, readonly y: number, readonly z: number) {}
  add(o: Vec3): Vec3 { return new Vec3(this.x + o.x, this.y + o.y, this.z + o.z); }
  sub(o: Vec3): Vec3 { return new Vec3(this.x - o.x, this.y - o.y, this.z - o.z); }
  scale(k: number): Vec3 { return new Vec3(this.x * k, this.y * k, this.z * k); }
  dot(o: Vec3): number { return this.x * o.x + this.y * o.y + this.z * o.z; }
  normalize(): Vec3 { return this.scale(1 / Math.sqrt(this.dot(this))); }
}

/** The same algorithm written the way a typical TypeScript ray tracer is (a Vec3 class). */
function vecTs(spheres: Float32Array, out: Float32Array): void {
  const centers = Array.from({ length: SPHERES }, (_, i) => new Vec3(spheres[i * 8]!, spheres[i * 8 + 1]!, spheres[i * 8 + 2]!));
  const hitSphere = (ro: Vec3, rd: Vec3, i: number): number => {
    const oc = ro.sub(centers[i]!);
    const r = spheres[i * 8 + 3]!;
    const b = oc.dot(rd);
    const h = b * b - (oc.dot(oc) - r * r);
    return h < 0 ? -1 : -b - Math.sqrt(h);
  };
  const ro = new Vec3(0, 0, -5);
  const l = new Vec3(1, 1, -1).normalize();
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const rd = new Vec3(((x + 0.5) / W) * 2 - 1, ((y + 0.5) / H) * 2 - 1, 1.5).normalize();
      let best = 1e30, hit = -1;
      for (let i = 0; i < SPHERES; i++) {
        const t = hitSphere(ro, rd, i);
        if (t > 0 && t < best) { best = t; hit = i; }
      }
      let c = new Vec3(0.1, 0.1, 0.2);
      if (hit >= 0) {
        const pos = ro.add(rd.scale(best));
        const n = pos.sub(centers[hit]!).normalize();
        let shade = Math.max(n.dot(l), 0);
        const o = pos.add(n.scale(0.001));
        for (let i = 0; i < SPHERES; i++) if (i !== hit && hitSphere(o, l, i) > 0) { shade *= 0.3; break; }
        c = new Vec3(spheres[hit * 8 + 4]!, spheres[hit * 8 + 5]!, spheres[hit * 8 + 6]!).scale(0.2 + 0.8 * shade);
      }
      const k = (y * W + x) * 4;
      out[k] = c.x; out[k + 1] = c.y; out[k + 2] = c.z; out[k + 3] = 1;
    }
  }
}

async function benchPt(size: number): Promise<void> {
  const p = await prepareRun('pt', { width: size, height: size });
  for (const engine of ['laneSerial', 'warp'] as const) {
    if (engine === 'laneSerial' && !p.program.laneFns) continue;
    const opts = { ...launchOptionsOf(p, 'rows'), engine };
    runFunctional(p.program, p.host.resources, opts); // JIT warm-up
    let best = Infinity;
    let insts = 0;
    for (let i = 0; i < 2; i++) {
      const t = process.cpuUsage();
      insts = runFunctional(p.program, p.host.resources, opts).threadInsts;
      const d = process.cpuUsage(t);
      best = Math.min(best, (d.user + d.system) / 1000);
    }
    console.log(`pt ${size}x${size} (${engine}): ${best.toFixed(0)} ms CPU, ${insts} thread insts, ${((insts / best) * 1000 / 1e6).toFixed(1)} M thread insts/s (includes RT traversal)`);
  }
}

function main(): void {
  const compiled = compileGlsl('bench/spheres.comp', SHADER);
  if (!compiled.module) {
    console.error(compiled.diagnostics);
    process.exit(1);
  }
  const spheres = sceneData();
  const t0 = performance.now();
  const program = compileProgram(compiled.module);
  const tCompile = performance.now() - t0;
  const push = new Uint8Array(Uint32Array.from([W, H, SPHERES]).buffer);
  const image = new Uint8Array(W * H * 16);
  const resources = {
    buffers: [
      { set: 0, binding: 0, data: new Uint8Array(spheres.buffer) },
      { set: 0, binding: 1, data: image },
    ],
    pushConstants: { data: push },
  };
  const opts = { entry: compiled.module.entryPoints[0]!.function, size: [Math.ceil(W / 32), H, 1] as [number, number, number] };
  // CPU time of this process (the machine is shared; wall time would count other jobs), best of N.
  const cpuMs = (f: () => void): number => {
    const t = process.cpuUsage();
    f();
    const d = process.cpuUsage(t);
    return (d.user + d.system) / 1000;
  };
  const reps = 5;
  let counters = runFunctional(program, resources, opts);
  let best = Infinity;
  for (let i = 0; i < reps; i++) best = Math.min(best, cpuMs(() => (counters = runFunctional(program, resources, opts))));
  const warpOpts = { ...opts, engine: 'warp' as const };
  runFunctional(program, resources, warpOpts);
  let bestWarp = Infinity;
  for (let i = 0; i < 3; i++) bestWarp = Math.min(bestWarp, cpuMs(() => runFunctional(program, resources, warpOpts)));
  const ref = new Float32Array(W * H * 4);
  let bestTs = Infinity;
  for (let i = 0; i < reps + 2; i++) bestTs = Math.min(bestTs, cpuMs(() => plainTs(spheres, ref)));
  const ref2 = new Float32Array(W * H * 4);
  let bestVec = Infinity;
  for (let i = 0; i < reps + 2; i++) bestVec = Math.min(bestVec, cpuMs(() => vecTs(spheres, ref2)));
  const img = new Float32Array(image.buffer);
  let maxDiff = 0;
  for (let i = 0; i < img.length; i++) maxDiff = Math.max(maxDiff, Math.abs(img[i]! - ref[i]!));
  const eff = counters.activeLanes / (32 * counters.warpInsts);
  console.log(`image ${W}x${H}, ${SPHERES} spheres`);
  console.log(`compile (IR -> JS): ${tCompile.toFixed(1)} ms`);
  console.log(`${counters.threadInsts} thread insts, ${counters.warpInsts} warp insts, SIMT efficiency ${(eff * 100).toFixed(1)}% (CPU time, best of several runs)`);
  console.log(`functional core, lane-serial engine (runFunctional default): ${best.toFixed(1)} ms, ${((counters.threadInsts / best) * 1000 / 1e6).toFixed(1)} M thread insts/s`);
  console.log(`functional core, warp-synchronous engine (what the timing model steps): ${bestWarp.toFixed(1)} ms, ${((counters.threadInsts / bestWarp) * 1000 / 1e6).toFixed(1)} M thread insts/s`);
  console.log(`plain TypeScript (scalarised by hand): ${bestTs.toFixed(1)} ms  -> simulator / plain = ${(best / bestTs).toFixed(2)}x`);
  console.log(`plain TypeScript (Vec3 class): ${bestVec.toFixed(1)} ms  -> simulator / plain = ${(best / bestVec).toFixed(2)}x`);
  console.log(`max |simulated - plain| over the image: ${maxDiff.toExponential(2)}`);
}

main();
await benchPt(Number(process.argv[4] ?? 96));
