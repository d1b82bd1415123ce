/**
 * The scene as the records of each scene buffer kind (`SCENE_BUFFER_FIELDS` in
 * src/sim/workload/manifest.ts: the contract between the scene and the built-in shaders).
 * Records are plain objects `{field: value}`; the packer writes the fields a shader's element
 * struct declares. Vertices and triangles are concatenated in mesh order; `instanceDescriptions`
 * point into those concatenated buffers by device address (nvpro's ObjDesc).
 * With `model`, records are that model's only (per-model buffers, as an application that loads
 * each file into its own buffers has): indices relative to the model's first vertex, material
 * indices relative to its first material, texture ids relative to its first texture.
 */
import { MATERIAL_TYPE_CODE, type Scene, type SceneModel } from '../rt/scene.js';
import type { SceneBufferKind } from '../workload/manifest.js';

export type SceneRecord = Record<string, unknown>;

/** Where each mesh starts in the concatenated vertex / triangle arrays. */
export interface MeshOffsets {
  firstVertex: number[];
  firstTriangle: number[];
}

export function meshOffsets(scene: Scene): MeshOffsets {
  const firstVertex: number[] = [];
  const firstTriangle: number[] = [];
  let v = 0;
  let t = 0;
  for (const m of scene.meshes) {
    firstVertex.push(v);
    firstTriangle.push(t);
    v += m.positions.length / 3;
    t += m.indices.length / 3;
  }
  return { firstVertex, firstTriangle };
}

/** The scene's models: `Scene.models`, or one per mesh (sharing all materials and textures). */
export function sceneModels(scene: Scene): SceneModel[] {
  return scene.models ?? scene.meshes.map((m, i) => ({
    name: m.name, firstMesh: i, meshCount: 1, firstMaterial: 0, materialCount: scene.materials.length, firstTexture: 0,
    textureCount: scene.textures.length,
  }));
}

/** Index of the model a mesh belongs to. */
function modelOfMesh(models: SceneModel[], mesh: number): number {
  return Math.max(0, models.findIndex((m) => mesh >= m.firstMesh && mesh < m.firstMesh + m.meshCount));
}

/** Device addresses and element strides of the packed scene buffers, for instance descriptions. */
export interface SceneBufferAddresses {
  get(kind: SceneBufferKind): { address: number; stride: number } | undefined;
}

export function sceneRecords(scene: Scene, kind: SceneBufferKind, addresses?: SceneBufferAddresses, model?: number): SceneRecord[] {
  if (model !== undefined) return modelRecords(scene, kind, model);
  switch (kind) {
    case 'vertices': {
      const out: SceneRecord[] = [];
      for (const m of scene.meshes) {
        const n = m.positions.length / 3;
        for (let i = 0; i < n; i++) {
          out.push({
            position: [m.positions[3 * i]!, m.positions[3 * i + 1]!, m.positions[3 * i + 2]!],
            normal: m.normals ? [m.normals[3 * i]!, m.normals[3 * i + 1]!, m.normals[3 * i + 2]!] : [0, 0, 0],
            texCoord: m.uvs ? [m.uvs[2 * i]!, m.uvs[2 * i + 1]!] : [0, 0],
            color: m.colors ? [m.colors[3 * i]!, m.colors[3 * i + 1]!, m.colors[3 * i + 2]!] : [1, 1, 1],
          });
        }
      }
      return out;
    }
    case 'indices': {
      const out: SceneRecord[] = [];
      for (const m of scene.meshes) {
        for (let t = 0; t < m.indices.length; t += 3) out.push({ '': [m.indices[t]!, m.indices[t + 1]!, m.indices[t + 2]!] });
      }
      return out;
    }
    case 'materials':
      return scene.materials.map((mat) => ({
        ambient: mat.ka, diffuse: mat.kd, specular: mat.ks, transmittance: [0, 0, 0], emission: mat.ke,
        shininess: mat.shininess, ior: mat.ior, dissolve: mat.opacity, illum: mat.illum, textureId: mat.textureIndex,
        type: MATERIAL_TYPE_CODE[mat.type] === 4 ? 0 : isEmissive(mat.ke) ? 3 : MATERIAL_TYPE_CODE[mat.type], fuzz: mat.roughness,
      }));
    case 'materialIndices': {
      const out: SceneRecord[] = [];
      for (const m of scene.meshes) for (const id of m.materialIds) out.push({ '': id });
      return out;
    }
    case 'instanceDescriptions': {
      const offs = meshOffsets(scene);
      const models = sceneModels(scene);
      const at = (k: SceneBufferKind, element: number) => {
        const a = addresses?.get(k);
        return a ? BigInt(a.address + element * a.stride) : 0n;
      };
      return scene.instances.map((inst) => {
        const mesh = inst.source === 'mesh' ? inst.geometryIndex : -1;
        const fv = mesh >= 0 ? offs.firstVertex[mesh]! : 0;
        const ft = mesh >= 0 ? offs.firstTriangle[mesh]! : 0;
        // Material and texture indices in the scene-wide buffers are scene-wide: no offsets to add.
        return {
          vertexAddress: at('vertices', fv),
          indexAddress: at('indices', ft),
          materialAddress: at('materials', 0),
          materialIndexAddress: at('materialIndices', ft),
          firstVertex: fv, firstIndex: ft * 3, firstMaterial: 0, model: mesh >= 0 ? modelOfMesh(models, mesh) : 0,
        };
      });
    }
    case 'models': {
      const offs = meshOffsets(scene);
      const models = sceneModels(scene);
      const at = (k: SceneBufferKind, element: number) => {
        const a = addresses?.get(k);
        return a ? BigInt(a.address + element * a.stride) : 0n;
      };
      return models.map((m, i) => {
        const meshes = scene.meshes.slice(m.firstMesh, m.firstMesh + m.meshCount);
        const fv = offs.firstVertex[m.firstMesh] ?? 0;
        const ft = offs.firstTriangle[m.firstMesh] ?? 0;
        const vertexCount = meshes.reduce((n, x) => n + x.positions.length / 3, 0);
        const triangleCount = meshes.reduce((n, x) => n + x.indices.length / 3, 0);
        return {
          vertexAddress: at('vertices', fv), indexAddress: at('indices', ft), materialAddress: at('materials', 0),
          materialIndexAddress: at('materialIndices', ft),
          firstVertex: fv, firstIndex: ft * 3, firstTriangle: ft, firstMaterial: m.firstMaterial, firstTexture: m.firstTexture,
          vertexCount, indexCount: triangleCount * 3, triangleCount, materialCount: m.materialCount, textureCount: m.textureCount,
          model: i, material: meshes[0]?.materialIds[0] ?? 0,
        };
      });
    }
    case 'aabbs': {
      const out: SceneRecord[] = [];
      for (const p of scene.procedurals) {
        for (let i = 0; i < p.aabbs.length; i += 6) {
          out.push({ minimum: [p.aabbs[i]!, p.aabbs[i + 1]!, p.aabbs[i + 2]!], maximum: [p.aabbs[i + 3]!, p.aabbs[i + 4]!, p.aabbs[i + 5]!] });
        }
      }
      return out;
    }
    case 'spheres': {
      const out: SceneRecord[] = [];
      for (const p of scene.procedurals) {
        if (p.kind !== 'sphere') continue;
        for (let i = 0; i < p.materialIds.length; i++) {
          out.push({ center: [p.params[4 * i]!, p.params[4 * i + 1]!, p.params[4 * i + 2]!], radius: p.params[4 * i + 3]!, material: p.materialIds[i]! });
        }
      }
      return out;
    }
    case 'lights': {
      // Emissive triangles: one record per triangle whose material emits (centroid, emission).
      const out: SceneRecord[] = [];
      for (const m of scene.meshes) {
        for (let t = 0; t < m.indices.length / 3; t++) {
          const mat = scene.materials[m.materialIds[t]!];
          if (!mat || !isEmissive(mat.ke)) continue;
          const c = [0, 0, 0];
          for (let k = 0; k < 3; k++) {
            const v = m.indices[3 * t + k]!;
            for (let a = 0; a < 3; a++) c[a]! += m.positions[3 * v + a]! / 3;
          }
          const intensity = Math.max(mat.ke[0], mat.ke[1], mat.ke[2]);
          out.push({ position: c, color: mat.ke.map((x) => x / intensity), intensity, type: 0 });
        }
      }
      return out;
    }
  }
}

/** One model's vertices / indices / materials / material indices, with model-local indices. */
function modelRecords(scene: Scene, kind: SceneBufferKind, model: number): SceneRecord[] {
  const m = sceneModels(scene)[model];
  if (!m) return [];
  const part: Scene = {
    ...scene,
    meshes: scene.meshes.slice(m.firstMesh, m.firstMesh + m.meshCount),
    materials: scene.materials.slice(m.firstMaterial, m.firstMaterial + m.materialCount)
      .map((mat) => ({ ...mat, textureIndex: mat.textureIndex >= 0 ? mat.textureIndex - m.firstTexture : -1 })),
  };
  delete part.models;
  switch (kind) {
    case 'indices': {
      // Relative to the model's first vertex (one buffer per model), not to each mesh's.
      const out: SceneRecord[] = [];
      let base = 0;
      for (const mesh of part.meshes) {
        for (let t = 0; t < mesh.indices.length; t += 3) out.push({ '': [mesh.indices[t]! + base, mesh.indices[t + 1]! + base, mesh.indices[t + 2]! + base] });
        base += mesh.positions.length / 3;
      }
      return out;
    }
    case 'materialIndices':
      return sceneRecords(part, kind).map((r) => ({ '': (r[''] as number) - m.firstMaterial }));
    case 'vertices':
    case 'materials':
      return sceneRecords(part, kind);
    default:
      return sceneRecords(scene, kind);
  }
}

function isEmissive(ke: readonly number[]): boolean {
  return ke[0]! > 0 || ke[1]! > 0 || ke[2]! > 0;
}
