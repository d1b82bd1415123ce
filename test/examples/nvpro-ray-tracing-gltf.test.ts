// nvpro-samples' ray_tracing_gltf, shaders and scene unmodified (examples/apps/nvpro-ray-tracing-gltf):
// vertex attributes in separate buffers ("field"), PrimMeshInfo per primitive mesh ("what": "models"
// with `material`) indexed by a custom index that is the mesh ("customIndexFrom": "mesh"), and push
// constant blocks that raygen, closest-hit and miss declare differently.
import test from 'ava';
import { join, resolve } from 'node:path';
import { prepareRun, runWorkload } from '../../src/driver/run-workload.js';
import { readTexel } from '../../src/sim/functional/images.js';

const MANIFEST = join(resolve(import.meta.dirname, '../../examples/apps/nvpro-ray-tracing-gltf'), 'workload.json');

test('renders the Cornell box: red wall right, green wall left, lit floor', async (t) => {
  const r = await runWorkload(MANIFEST, { width: 32, height: 32 });
  const px = new Float64Array(4);
  const rgb = (x: number, y: number): number[] => {
    px.fill(0);
    readTexel(r.image!, 0, x, y, 0, 0, px);
    return [px[0]!, px[1]!, px[2]!];
  };
  const [lr, lg, lb] = rgb(5, 16);
  t.true(lg! > 2 * lr! && lg! > 2 * lb!, `left wall ${[lr, lg, lb]}`);
  const [rr, rg, rb] = rgb(26, 16);
  t.true(rr! > 2 * rg! && rr! > 2 * rb!, `right wall ${[rr, rg, rb]}`);
  t.true(r.rt.rays > 32 * 32, 'shadow rays');
});

test('one push constant range: the miss shader\'s one-member block reads the clear colour the raygen block holds', async (t) => {
  const p = await prepareRun(MANIFEST, { width: 8, height: 8 });
  const pc = new Float32Array(p.host.resources.pushConstants!.data.buffer, 0, 8);
  t.deepEqual([...pc.slice(0, 4)], [1, 1, 1, 1]);
  t.deepEqual([...pc.slice(4, 8)], [0, 4.5, 0, 10]);
  // PrimMeshInfo {uint indexOffset; uint vertexOffset; int materialIndex;}: 12 bytes per primitive mesh.
  const prim = p.host.resources.buffers!.find((b) => b.set === 0 && b.binding === 2)!;
  const view = new DataView(prim.data.buffer, prim.data.byteOffset, prim.data.byteLength);
  const meshes = p.scene.meshes;
  let firstIndex = 0;
  let firstVertex = 0;
  meshes.forEach((m, k) => {
    t.is(view.getUint32(12 * k, true), firstIndex, `mesh ${k} indexOffset`);
    t.is(view.getUint32(12 * k + 4, true), firstVertex, `mesh ${k} vertexOffset`);
    t.is(view.getInt32(12 * k + 8, true), m.materialIds[0], `mesh ${k} material`);
    firstIndex += m.indices.length;
    firstVertex += m.positions.length / 3;
  });
  // One instance per node; its custom index is its mesh (two nodes draw mesh 1).
  t.deepEqual(p.scene.instances.map((i) => i.customIndex), p.scene.instances.map((i) => i.geometryIndex));
  t.true(p.scene.instances.length > meshes.length);
});

test('a push constant value no declaration takes: one message, from the declaration it was written for', async (t) => {
  const { sharedPreparation } = await import('../../src/driver/run-workload.js');
  const { checkManifestInterfaces, moduleLookup } = await import('../../src/sim/workload/check-interface.js');
  const shared = await sharedPreparation(MANIFEST);
  const manifest = { ...shared.manifest, pushConstants: { pcRay: { clearColour: [1, 1, 1, 1] } } };
  const problems = checkManifestInterfaces(manifest, moduleLookup(manifest, shared.compiled.stages));
  t.is(problems.length, 1, problems.join('\n'));
  t.regex(problems[0]!, /pushConstants\.pcRay\.clearColour: struct PushConstantRay has no member "clearColour" \(members: clearColor, lightPosition, lightIntensity, lightType, frame\) \(block _PushConstantRay in .*raytrace\.rgen\)$/);
});
