/**
 * The scene a manifest names (OBJ, glTF, a seeded procedural generator, or several model files),
 * with the manifest's instance list applied. The host side of `vkCmdBuildAccelerationStructuresKHR`
 * starts here.
 *
 * `scene.models` concatenates the models in order, as an application that loads several files
 * does: meshes, materials and textures are appended, each model's material ids and texture
 * indices are offset into the scene-wide lists, and `Scene.models` records where each model
 * starts. Each model gets one instance per mesh (an OBJ has one: one BLAS per model) with the
 * model's transform (composed with glTF node transforms) and its customIndex (default: the
 * model's index, so gl_InstanceCustomIndexEXT indexes per-model object descriptions).
 */
import { loadGltfScene } from '../rt/load-gltf.js';
import { loadObjScene } from '../rt/load-obj.js';
import { proceduralScene } from '../rt/procedural-scenes.js';
import { INSTANCE_FLAG, identityTransform, type Instance, type Scene, type SceneModel } from '../rt/scene.js';
import { convertScene } from './scene-conversions.js';
import { ManifestError, type ModelSpec, type SceneSpec } from '../workload/manifest.js';

/** No `scene` in the manifest (the geometry is all declared in `accelerationStructures`): an empty scene. */
export async function loadScene(spec: SceneSpec | undefined, manifestPath: string): Promise<Scene> {
  if (!spec) return { name: 'declared', meshes: [], procedurals: [], materials: [], textures: [], instances: [] };
  const src = spec.source;
  const scene = spec.models
    ? await loadModels(spec.models)
    : src!.kind === 'obj' ? loadObjScene(src!.file) : src!.kind === 'gltf' ? await loadGltfScene(src!.file) : proceduralScene(src!.generator, src!.seed);
  if (!spec.opaque) for (const m of scene.meshes) m.opaque = false;
  // `instances` describe what the application instances: after `preTransformVertices` that is the one
  // merged mesh the loader returns (mesh 0), so the loader's conversions come first.
  const converted = spec.conversions ? convertScene(scene, spec.conversions) : scene;
  if (spec.instances.length > 0) converted.instances = spec.instances.map((inst, i) => toInstance(converted, inst, i, manifestPath));
  else if (spec.customIndexFrom === 'mesh') converted.instances = converted.instances.map((inst) => (inst.source === 'mesh' ? { ...inst, customIndex: inst.geometryIndex } : inst));
  return converted;
}

async function loadModels(models: ModelSpec[]): Promise<Scene> {
  const scene: Scene = { name: models.map((m) => m.name).join('+'), meshes: [], procedurals: [], materials: [], textures: [], instances: [], models: [] };
  for (const [index, spec] of models.entries()) {
    const part = spec.source.kind === 'obj' ? loadObjScene(spec.source.file) : await loadGltfScene(spec.source.file);
    const model: SceneModel = {
      name: spec.name,
      firstMesh: scene.meshes.length, meshCount: part.meshes.length,
      firstMaterial: scene.materials.length, materialCount: part.materials.length,
      firstTexture: scene.textures.length, textureCount: part.textures.length,
    };
    for (const mesh of part.meshes) {
      const materialIds = mesh.materialIds.map((id) => id + model.firstMaterial);
      scene.meshes.push({ ...mesh, name: part.meshes.length === 1 ? spec.name : `${spec.name}/${mesh.name}`, materialIds });
    }
    for (const mat of part.materials) {
      scene.materials.push({ ...mat, textureIndex: mat.textureIndex >= 0 ? mat.textureIndex + model.firstTexture : -1 });
    }
    scene.textures.push(...part.textures);
    let flags = 0;
    for (const f of spec.flags) flags |= INSTANCE_FLAG[f];
    for (const inst of part.instances) {
      if (inst.source !== 'mesh') continue;
      scene.instances.push({
        source: 'mesh',
        geometryIndex: inst.geometryIndex + model.firstMesh,
        transform: compose(Float32Array.from(spec.transform), inst.transform),
        customIndex: spec.customIndex ?? index,
        mask: spec.mask,
        sbtOffset: spec.sbtOffset,
        flags,
      });
    }
    scene.models!.push(model);
  }
  return scene;
}

/** a * b for 3x4 row-major affine transforms (b applied first). */
function compose(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(12);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 4; c++) {
      let v = c === 3 ? a[r * 4 + 3]! : 0;
      for (let k = 0; k < 3; k++) v += a[r * 4 + k]! * b[k * 4 + c]!;
      out[r * 4 + c] = v;
    }
  }
  return out;
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
