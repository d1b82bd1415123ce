/**
 * BVH build and traversal throughput. Prints triangles/s of the full acceleration-structure build
 * (binned SAH + wide collapse + Fig. 7 layout) for the bunny and a 1M-triangle synthetic mesh at
 * widths 6 and 4, and rays/s of `traverse` with and without transaction recording next to a
 * plain-TypeScript reference tracer (binary BVH, closest hit, no Vulkan semantics: no flags,
 * instances or records), so the cost of the functional simulator's extra work is visible.
 * Run: npx tsx bench/bvh.ts   (scene folder from VVISION_SCENES, default /work/shared/scenes)
 */
import { buildAccelerationStructure } from '../src/sim/rt/acceleration-structure.js';
import { buildBinaryBvh, type BinaryBvh } from '../src/sim/rt/bvh-build.js';
import { loadObjScene } from '../src/sim/rt/load-obj.js';
import { identityTransform, type Scene } from '../src/sim/rt/scene.js';
import { traverse } from '../src/sim/rt/traversal.js';
import { TransactionRecord } from '../src/sim/rt/transaction-record.js';
import { createWatertightRay, intersectTriangle, prepareWatertightRay, triangleHit } from '../src/sim/rt/ray-triangle.js';
import { intersectRayBox } from '../src/sim/rt/ray-box.js';

/** A seeded, bumpy height-field grid: n x n quads, 2 n^2 triangles. */
function syntheticMesh(n: number): Scene {
  const positions = new Float32Array(3 * (n + 1) * (n + 1));
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) {
      const o = 3 * (j * (n + 1) + i);
      positions[o] = i / n; positions[o + 2] = j / n;
      positions[o + 1] = 0.05 * Math.sin(i * 0.37) * Math.cos(j * 0.23);
    }
  }
  const indices = new Uint32Array(6 * n * n);
  let k = 0;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
      indices[k++] = a; indices[k++] = c; indices[k++] = b;
      indices[k++] = b; indices[k++] = c; indices[k++] = d;
    }
  }
  return {
    name: 'synthetic', meshes: [{ name: 'grid', positions, indices, materialIds: new Uint32Array(2 * n * n), opaque: true }], procedurals: [], materials: [], textures: [],
    instances: [{ source: 'mesh', geometryIndex: 0, transform: identityTransform(), customIndex: 0, mask: 0xff, sbtOffset: 0, flags: 0 }],
  };
}

/** [result, wall seconds, CPU seconds]; CPU time stays meaningful on a shared, loaded machine. */
function time<T>(f: () => T): [T, number, number] {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = f();
  const c = process.cpuUsage(c0);
  return [r, (performance.now() - t0) / 1000, (c.user + c.system) / 1e6];
}

function benchBuild(label: string, scene: Scene): void {
  const tris = scene.meshes.reduce((s, m) => s + m.indices.length / 3, 0);
  for (const width of [6, 4] as const) {
    const [as, secs, cpu] = time(() => buildAccelerationStructure(scene, { width }));
    console.log(`build ${label} width ${width}: ${tris} triangles in ${secs.toFixed(2)} s wall / ${cpu.toFixed(2)} s CPU = ${(tris / cpu / 1e6).toFixed(2)} M tris/CPU-s, ${as.nodeCount} nodes, ${(as.totalBytes / 1048576).toFixed(1)} MiB`);
  }
}

/** Minimal reference: binary BVH, nearest child first, closest hit, no Vulkan semantics. */
function referenceTrace(bvh: BinaryBvh, verts: Float32Array, o: number[], d: number[], stack: Int32Array, stackT: Float64Array, wr: Float64Array): number {
  prepareWatertightRay(d[0]!, d[1]!, d[2]!, wr);
  const ix = 1 / d[0]!, iy = 1 / d[1]!, iz = 1 / d[2]!;
  const ox = o[0]!, oy = o[1]!, oz = o[2]!;
  let best = Infinity, sp = 0;
  let node = intersectRayBox(bvh.bounds, 0, ox, oy, oz, ix, iy, iz, 0, best) >= 0 ? 0 : -1;
  while (node >= 0 || sp > 0) {
    if (node < 0) {
      sp--;
      if (stackT[sp]! > best) continue;
      node = stack[sp]!;
    }
    if (bvh.left[node]! < 0) {
      const p = bvh.order[bvh.primStart[node]!]!;
      if (intersectTriangle(verts, 9 * p, ox, oy, oz, wr, 0, best)) best = triangleHit[0]!;
      node = -1;
      continue;
    }
    const l = bvh.left[node]!, r = bvh.right[node]!;
    const tl = intersectRayBox(bvh.bounds, 6 * l, ox, oy, oz, ix, iy, iz, 0, best);
    const tr = intersectRayBox(bvh.bounds, 6 * r, ox, oy, oz, ix, iy, iz, 0, best);
    if (tl >= 0 && tr >= 0) {
      const near = tl <= tr ? l : r;
      stack[sp] = tl <= tr ? r : l; stackT[sp] = Math.max(tl, tr); sp++;
      node = near;
    } else node = tl >= 0 ? l : tr >= 0 ? r : -1;
  }
  return best;
}

function benchTraversal(label: string, scene: Scene, rays: number): void {
  const as = buildAccelerationStructure(scene);
  const mesh = scene.meshes[0]!;
  const tris = mesh.indices.length / 3;
  const verts = new Float32Array(9 * tris);
  const boxes = new Float32Array(6 * tris);
  for (let p = 0; p < tris; p++) {
    for (let k = 0; k < 3; k++) for (let a = 0; a < 3; a++) verts[9 * p + 3 * k + a] = mesh.positions[3 * mesh.indices[3 * p + k]! + a]!;
    for (let a = 0; a < 3; a++) {
      boxes[6 * p + a] = Math.min(verts[9 * p + a]!, verts[9 * p + 3 + a]!, verts[9 * p + 6 + a]!);
      boxes[6 * p + 3 + a] = Math.max(verts[9 * p + a]!, verts[9 * p + 3 + a]!, verts[9 * p + 6 + a]!);
    }
  }
  const bin = buildBinaryBvh(boxes);
  const b = bin.bounds;
  const centre = [0.5 * (b[0]! + b[3]!), 0.5 * (b[1]! + b[4]!), 0.5 * (b[2]! + b[5]!)];
  const radius = Math.hypot(b[3]! - b[0]!, b[4]! - b[1]!, b[5]! - b[2]!);
  // Primary-ray-like bundle: from a point outside towards a grid on the bounding box.
  const side = Math.ceil(Math.sqrt(rays));
  const origin = [centre[0]! + 0.3 * radius, centre[1]! + 0.4 * radius, centre[2]! + 1.2 * radius];
  const dirs: number[][] = [];
  for (let j = 0; j < side; j++) for (let i = 0; i < side; i++) {
    const target = [b[0]! + (b[3]! - b[0]!) * (i + 0.5) / side, b[1]! + (b[4]! - b[1]!) * (j + 0.5) / side, centre[2]!];
    dirs.push(target.map((v, a) => v - origin[a]!));
  }
  const stack = new Int32Array(256), stackT = new Float64Array(256), wr = createWatertightRay();
  const q = { origin: origin as [number, number, number], direction: [0, 0, 0] as [number, number, number], tmin: 0, tmax: Infinity, flags: 0, cullMask: 0xff, sbtRecordOffset: 0, sbtRecordStride: 1 };
  const rec = new TransactionRecord();
  let checksumRef = 0, checksumSim = 0, nodes = 0, transactions = 0;
  for (let warm = 0; warm < 2; warm++) {
    const [, , refSecs] = time(() => { checksumRef = 0; for (const d of dirs) { const t = referenceTrace(bin, verts, origin, d, stack, stackT, wr); if (t < Infinity) checksumRef += t; } });
    const [, , simSecs] = time(() => { checksumSim = 0; nodes = 0; for (const d of dirs) { q.direction = d as [number, number, number]; const r = traverse(as, q); nodes += r.nodesVisited; if (r.committed) checksumSim += r.committed.t; } });
    const [, , recSecs] = time(() => { transactions = 0; for (const d of dirs) { q.direction = d as [number, number, number]; traverse(as, q, { recordInto: rec }); transactions += rec.count; } });
    if (warm === 1) {
      const n = dirs.length;
      console.log(`trace ${label}: ${n} rays; reference binary-BVH tracer ${(n / refSecs / 1e6).toFixed(2)} M rays/CPU-s; traverse ${(n / simSecs / 1e6).toFixed(2)} M rays/CPU-s (${(simSecs / refSecs).toFixed(2)}x reference), ` +
        `with recording ${(n / recSecs / 1e6).toFixed(2)} M rays/CPU-s (${(recSecs / refSecs).toFixed(2)}x); ${(nodes / n).toFixed(1)} nodes/ray, ${(transactions / n).toFixed(1)} transactions/ray; ` +
        `checksums ${checksumRef.toFixed(3)} / ${checksumSim.toFixed(3)}`);
    }
  }
}

const scenes = process.env['VVISION_SCENES'] ?? '/work/shared/scenes';
const bunny = loadObjScene(`${scenes}/common-3d-test-models/stanford-bunny.obj`);
benchBuild('bunny', bunny);
const synthetic = syntheticMesh(708); // 2 * 708^2 = 1,002,528 triangles
benchBuild('synthetic-1M', synthetic);
benchTraversal('bunny', bunny, 100_000);
benchTraversal('synthetic-1M', synthetic, 100_000);
