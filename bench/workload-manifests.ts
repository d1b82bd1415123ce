/**
 * Benchmark of the workload manifest side: loading + validating every built-in manifest, and
 * packing scene-sized JSON values with packValue (the per-element path the host uses for vertex
 * buffers). Prints figures; asserts nothing.
 *
 * Run: npx tsx bench/workload-manifests.ts
 */
import { performance } from 'node:perf_hooks';
import { declareStruct, intern, newTypeTable, T } from '../src/ir/types.js';
import { listBuiltinWorkloads, loadManifest } from '../src/sim/workload/load-manifest.js';
import { layoutSize, packValue } from '../src/sim/workload/pack-layout.js';

function timeIt(label: string, repeats: number, fn: () => void): number {
  fn(); // warm up
  const t0 = performance.now();
  for (let i = 0; i < repeats; i++) fn();
  const ms = (performance.now() - t0) / repeats;
  console.log(`${label}: ${ms.toFixed(3)} ms`);
  return ms;
}

const workloads = listBuiltinWorkloads();
timeIt(`load + validate all ${workloads.length} built-in manifests`, 20, () => {
  for (const w of workloads) loadManifest(w.manifest);
});

// The bunny's vertex buffer: 34,834 scalar Vertex records { vec3 position; vec3 normal; vec2 texCoord; }.
const tt = newTypeTable();
const f32 = T.f32(tt);
const vertex = declareStruct(tt, 'Vertex', [
  { name: 'position', type: T.vec(tt, f32, 3), offset: 0 },
  { name: 'normal', type: T.vec(tt, f32, 3), offset: 12 },
  { name: 'texCoord', type: T.vec(tt, f32, 2), offset: 24 },
], { layout: 'scalar' });
const block = declareStruct(tt, 'VertexBuffer', [{ name: 'vertices', type: intern(tt, { kind: 'runtimeArray', elem: vertex, stride: 32 }), offset: 0 }], { layout: 'scalar', block: true });
const n = 34834;
const records = Array.from({ length: n }, (_, i) => ({ position: [i, i + 1, i + 2], normal: [0, 1, 0], texCoord: [0.5, 0.25] }));
const bytes = new DataView(new ArrayBuffer(layoutSize(tt, block, n)));
const ms = timeIt(`packValue ${n} vertex records (${(bytes.byteLength / 1024).toFixed(0)} KiB)`, 5, () => {
  packValue(bytes, 0, block, tt, { vertices: records }, 'vertices');
});
console.log(`packValue throughput: ${((n / ms) * 1000 / 1e6).toFixed(2)} M records/s, ${((bytes.byteLength / ms) * 1000 / 2 ** 20).toFixed(1)} MiB/s`);
