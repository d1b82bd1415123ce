/**
 * glTF 2.0 loader (.gltf with .bin or embedded data-URI buffers, and .glb) on @gltf-transform/core.
 * Each glTF mesh becomes one Scene mesh (its triangle primitives merged, with per-triangle
 * material ids); every node that references a mesh becomes an instance whose transform is the
 * node's world matrix, so shared meshes are instanced as in the file. Materials keep the PBR
 * metallic-roughness base colour, emissive, metallic, roughness and base-colour texture; vertex
 * colours (COLOR_0, RGB part) become `colors`.
 *
 * Invariants: instance order is the depth-first node order of the default scene (first scene when
 * none is marked default); a mesh is opaque unless one of its materials uses alphaMode MASK or
 * BLEND (those need any-hit); non-triangle primitives (points, lines, strips) are rejected with a
 * `GltfLoadError` naming the mesh and primitive.
 */
import { dirname, resolve } from 'node:path';
import { Logger, NodeIO, type Node as GltfNode, type Material as GltfMaterial, type Texture as GltfTexture } from '@gltf-transform/core';
import { GltfLoadError } from './gltf-load-error.js';
import { checkGltfReferences } from './gltf-references.js';
import { defaultMaterial, type Instance, type Material, type Scene, type Texture, type TriangleMesh } from './scene.js';

export { GltfLoadError } from './gltf-load-error.js';

const TRIANGLES = 4;

export async function loadGltfScene(path: string): Promise<Scene> {
  const file = resolve(path);
  // gltf-transform follows indices without checking them (a bad accessor ends in a TypeError).
  checkGltfReferences(file);
  let doc;
  try {
    // Unknown optional extensions (lights, MDL materials) are expected; they carry nothing we use.
    doc = await new NodeIO().setLogger(new Logger(Logger.Verbosity.ERROR)).read(file);
  } catch (e) {
    throw new GltfLoadError(file, `cannot read glTF (${e instanceof Error ? e.message : String(e)})`);
  }
  const root = doc.getRoot();
  const dir = dirname(file);

  const textures: Texture[] = [];
  const textureIndex = new Map<GltfTexture, number>();
  const textureOf = (tex: GltfTexture | null): number => {
    if (!tex) return -1;
    let idx = textureIndex.get(tex);
    if (idx !== undefined) return idx;
    idx = textures.length;
    const uri = tex.getURI();
    const image = tex.getImage();
    if (uri && !uri.startsWith('data:')) textures.push({ path: resolve(dir, uri), mimeType: tex.getMimeType() });
    else textures.push({ path: `${file}#${tex.getName() || `texture${idx}`}`, mimeType: tex.getMimeType(), ...(image ? { data: image } : {}) });
    textureIndex.set(tex, idx);
    return idx;
  };

  const materials: Material[] = [];
  const materialIndex = new Map<GltfMaterial, number>();
  const materialOf = (m: GltfMaterial | null): number => {
    const key = m ?? null;
    if (key === null) {
      let idx = materials.findIndex((x) => x.name === '__gltf_default');
      if (idx < 0) { idx = materials.length; materials.push({ ...defaultMaterial('__gltf_default'), type: 'pbr' }); }
      return idx;
    }
    let idx = materialIndex.get(key);
    if (idx !== undefined) return idx;
    const base = key.getBaseColorFactor();
    const em = key.getEmissiveFactor();
    const emissive = em[0] > 0 || em[1] > 0 || em[2] > 0;
    idx = materials.length;
    materials.push({
      ...defaultMaterial(key.getName() || `material${idx}`),
      type: emissive ? 'diffuseLight' : 'pbr',
      kd: [base[0], base[1], base[2]],
      ke: [em[0], em[1], em[2]],
      roughness: key.getRoughnessFactor(),
      metallic: key.getMetallicFactor(),
      opacity: key.getAlphaMode() === 'OPAQUE' ? 1 : base[3],
      ior: 1.5,
      textureIndex: textureOf(key.getBaseColorTexture()),
    });
    materialIndex.set(key, idx);
    return idx;
  };

  const meshes: TriangleMesh[] = [];
  const meshIndex = new Map<unknown, number>();
  root.listMeshes().forEach((mesh, mi) => {
    const positions: number[] = [], normals: number[] = [], uvs: number[] = [], colors: number[] = [];
    const indices: number[] = [];
    const materialIds: number[] = [];
    let anyNormal = false, anyUv = false, anyColor = false, opaque = true;
    const el: number[] = [];
    mesh.listPrimitives().forEach((prim, pi) => {
      const where = `mesh ${mi} ('${mesh.getName()}') primitive ${pi}`;
      if (prim.getMode() !== TRIANGLES) throw new GltfLoadError(file, `${where}: mode ${prim.getMode()} is not TRIANGLES`);
      const pos = prim.getAttribute('POSITION');
      if (!pos) throw new GltfLoadError(file, `${where}: no POSITION attribute`);
      const nrm = prim.getAttribute('NORMAL');
      const uv = prim.getAttribute('TEXCOORD_0');
      // Vertex colours (RGB or RGBA, float or normalised integers): the RGB part, white where absent.
      const col = prim.getAttribute('COLOR_0');
      const base = positions.length / 3;
      const count = pos.getCount();
      for (let i = 0; i < count; i++) {
        pos.getElement(i, el); positions.push(el[0]!, el[1]!, el[2]!);
        if (nrm) { nrm.getElement(i, el); normals.push(el[0]!, el[1]!, el[2]!); } else normals.push(0, 0, 0);
        if (uv) { uv.getElement(i, el); uvs.push(el[0]!, el[1]!); } else uvs.push(0, 0);
        if (col) { col.getElement(i, el); colors.push(el[0]!, el[1]!, el[2]!); } else colors.push(1, 1, 1);
      }
      if (col) anyColor = true;
      if (nrm) anyNormal = true;
      if (uv) anyUv = true;
      const idx = prim.getIndices();
      const n = idx ? idx.getCount() : count;
      if (n % 3 !== 0) throw new GltfLoadError(file, `${where}: ${n} indices is not a multiple of 3`);
      for (let i = 0; i < n; i++) {
        const v = idx ? idx.getScalar(i) : i;
        if (v >= count) throw new GltfLoadError(file, `${where}: index ${v} >= vertex count ${count}`);
        indices.push(base + v);
      }
      const mat = prim.getMaterial();
      if (mat && mat.getAlphaMode() !== 'OPAQUE') opaque = false;
      const id = materialOf(mat);
      for (let i = 0; i < n / 3; i++) materialIds.push(id);
    });
    meshIndex.set(mesh, meshes.length);
    meshes.push({
      name: mesh.getName() || `mesh${mi}`,
      positions: new Float32Array(positions),
      indices: new Uint32Array(indices),
      materialIds: new Uint32Array(materialIds),
      opaque,
      ...(anyNormal ? { normals: new Float32Array(normals) } : {}),
      ...(anyUv ? { uvs: new Float32Array(uvs) } : {}),
      ...(anyColor ? { colors: new Float32Array(colors) } : {}),
    });
  });

  const instances: Instance[] = [];
  const visit = (node: GltfNode): void => {
    const mesh = node.getMesh();
    if (mesh) {
      // glTF matrices are column-major 4x4; instances want 3x4 row-major.
      const w = node.getWorldMatrix();
      const transform = new Float32Array([w[0], w[4], w[8], w[12], w[1], w[5], w[9], w[13], w[2], w[6], w[10], w[14]]);
      instances.push({ source: 'mesh', geometryIndex: meshIndex.get(mesh)!, transform, customIndex: instances.length, mask: 0xff, sbtOffset: 0, flags: 0 });
    }
    for (const child of node.listChildren()) visit(child);
  };
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (scene) for (const n of scene.listChildren()) visit(n);
  if (materials.length === 0) materials.push(defaultMaterial('default'));
  const name = file.slice(dir.length + 1).replace(/\.(gltf|glb)$/i, '');
  return { name, meshes, procedurals: [], materials, textures, instances };
}
