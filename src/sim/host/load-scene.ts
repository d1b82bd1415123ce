/**
 * The scene a manifest names (OBJ, glTF or a seeded procedural generator), with the manifest's
 * instance list applied. The host side of `vkCmdBuildAccelerationStructuresKHR` starts here.
 */
import { loadGltfScene } from '../rt/load-gltf.js';
import { loadObjScene } from '../rt/load-obj.js';
import { proceduralScene } from '../rt/procedural-scenes.js';
import { INSTANCE_FLAG, identityTransform, type Instance, type Scene } from '../rt/scene.js';
import { ManifestError, type SceneSpec } from '../workload/manifest.js';

/** No `scene` in the manifest (the geometry is all declared in `accelerationStructures`): an empty scene. */
export async function loadScene(spec: SceneSpec | undefined, manifestPath: string): Promise<Scene> {
  if (!spec) return { name: 'declared', meshes: [], procedurals: [], materials: [], textures: [], instances: [] };
  const src = spec.source;
  const scene =
    src.kind === 'obj' ? loadObjScene(src.file) : src.kind === 'gltf' ? await loadGltfScene(src.file) : proceduralScene(src.generator, src.seed);
  if (!spec.opaque) for (const m of scene.meshes) m.opaque = false;
  if (spec.instances.length > 0) scene.instances = spec.instances.map((inst, i) => toInstance(scene, inst, i, manifestPath));
  return scene;
}

function toInstance(scene: Scene, spec: SceneSpec['instances'][number], i: number, manifestPath: string): Instance {
  const where = `${manifestPath}: scene.instances[${i}]`;
  let source: Instance['source'];
  let geometryIndex: number;
  if (typeof spec.mesh === 'number') {
    // Meshes first, then procedural geometries, as the loaders' default instance list numbers them.
    if (spec.mesh < scene.meshes.length) {
      source = 'mesh';
      geometryIndex = spec.mesh;
    } else if (spec.mesh < scene.meshes.length + scene.procedurals.length) {
      source = 'procedural';
      geometryIndex = spec.mesh - scene.meshes.length;
    } else {
      throw new ManifestError([`${where}.mesh: ${spec.mesh} is out of range (the scene has ${scene.meshes.length} meshes and ${scene.procedurals.length} procedural geometries)`]);
    }
  } else {
    const mesh = scene.meshes.findIndex((m) => m.name === spec.mesh);
    const proc = scene.procedurals.findIndex((p) => p.name === spec.mesh);
    if (mesh >= 0) {
      source = 'mesh';
      geometryIndex = mesh;
    } else if (proc >= 0) {
      source = 'procedural';
      geometryIndex = proc;
    } else {
      const names = [...scene.meshes.map((m) => m.name), ...scene.procedurals.map((p) => p.name)];
      throw new ManifestError([`${where}.mesh: no mesh named "${spec.mesh}" (the scene has: ${names.join(', ')})`]);
    }
  }
  let flags = 0;
  for (const f of spec.flags) flags |= INSTANCE_FLAG[f];
  return {
    source,
    geometryIndex,
    transform: spec.transform.length === 12 ? Float32Array.from(spec.transform) : identityTransform(),
    customIndex: spec.customIndex,
    mask: spec.mask,
    sbtOffset: spec.sbtOffset,
    flags,
  };
}
