/**
 * Checks the references inside a glTF file's JSON before @gltf-transform/core reads it: that
 * reader follows indices (an accessor's bufferView, a bufferView's buffer, a primitive's
 * attribute, a node's mesh) without checking them, so a bad one ends in a raw TypeError
 * ("reading 'byteStride'") or in silently wrong geometry. Each problem is a GltfLoadError naming
 * the file and the JSON path (`accessors[3].bufferView`), as glTF-Validator names them.
 *
 * Checked: every index is an integer naming an existing element; an accessor's componentType and
 * type are glTF's; its bytes (offset, stride, count) lie inside its bufferView, and a bufferView's
 * inside its buffer's declared byteLength. A file that cannot be read or is not JSON / GLB is left
 * to the reader's own error.
 */
import { readFileSync } from 'node:fs';
import { GltfLoadError } from './gltf-load-error.js';

const COMPONENT_BYTES: Readonly<Record<number, number>> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Readonly<Record<string, number>> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

type Json = Record<string, unknown>;

/** The JSON of a .gltf, or of a .glb's first chunk; undefined when it is neither (the reader reports that). */
function gltfJson(file: string): Json | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  let text: string;
  if (bytes.length >= 20 && bytes.toString('latin1', 0, 4) === 'glTF') {
    const length = bytes.readUInt32LE(12);
    if (bytes.toString('latin1', 16, 20) !== 'JSON' || 20 + length > bytes.length) return undefined;
    text = bytes.toString('utf8', 20, 20 + length);
  } else {
    text = bytes.toString('utf8');
  }
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Json) : undefined;
  } catch {
    return undefined;
  }
}

export function checkGltfReferences(file: string): void {
  const json = gltfJson(file);
  if (!json) return;
  const fail = (path: string, detail: string): never => {
    throw new GltfLoadError(file, `${path}: ${detail}`);
  };
  const list = (key: string): Json[] => {
    const v = json[key];
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'object' || x === null)) fail(key, 'is not an array of objects');
    return v as Json[];
  };
  const buffers = list('buffers'), views = list('bufferViews'), accessors = list('accessors'), meshes = list('meshes');
  const nodes = list('nodes'), scenes = list('scenes'), materials = list('materials');
  const count = (path: string, v: unknown, min = 0): number => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) fail(path, `${JSON.stringify(v)} is not an integer >= ${min}`);
    return v as number;
  };
  const index = (path: string, v: unknown, of: unknown[], what: string): number => {
    const i = count(path, v);
    if (i >= of.length) fail(path, `${what} ${i} does not exist (the file has ${of.length})`);
    return i;
  };
  views.forEach((v, i) => {
    const b = buffers[index(`bufferViews[${i}].buffer`, v.buffer, buffers, 'buffer')]!;
    const end = count(`bufferViews[${i}].byteOffset`, v.byteOffset ?? 0) + count(`bufferViews[${i}].byteLength`, v.byteLength, 1);
    const size = count(`buffers[${v.buffer}].byteLength`, b.byteLength, 1);
    if (end > size) fail(`bufferViews[${i}]`, `bytes up to ${end} lie outside buffer ${v.buffer} of ${size} bytes`);
    if (v.byteStride !== undefined) count(`bufferViews[${i}].byteStride`, v.byteStride, 4);
  });
  accessors.forEach((a, i) => {
    const at = `accessors[${i}]`;
    const bytes = COMPONENT_BYTES[a.componentType as number];
    if (bytes === undefined) fail(`${at}.componentType`, `${JSON.stringify(a.componentType)} is not a glTF component type (5120-5123, 5125, 5126)`);
    const comps = TYPE_COMPONENTS[a.type as string];
    if (comps === undefined) fail(`${at}.type`, `${JSON.stringify(a.type)} is not a glTF accessor type (SCALAR, VEC2-4, MAT2-4)`);
    const n = count(`${at}.count`, a.count, 1);
    const offset = count(`${at}.byteOffset`, a.byteOffset ?? 0);
    if (a.bufferView === undefined) return; // all zeros (or sparse): nothing to read out of bounds
    const view = views[index(`${at}.bufferView`, a.bufferView, views, 'bufferView')]!;
    const element = bytes! * comps!;
    const stride = typeof view.byteStride === 'number' ? view.byteStride : element;
    const end = offset + stride * (n - 1) + element;
    if (end > (view.byteLength as number)) fail(at, `${n} elements of ${element} bytes (stride ${stride}) from byte ${offset} need ${end} bytes; bufferView ${a.bufferView} has ${view.byteLength as number}`);
  });
  meshes.forEach((m, mi) => {
    const prims = m.primitives;
    if (!Array.isArray(prims)) fail(`meshes[${mi}].primitives`, 'is not an array');
    (prims as Json[]).forEach((p, pi) => {
      const at = `meshes[${mi}].primitives[${pi}]`;
      const attrs = (p.attributes ?? {}) as Record<string, unknown>;
      for (const [name, a] of Object.entries(attrs)) index(`${at}.attributes.${name}`, a, accessors, 'accessor');
      if (p.indices !== undefined) index(`${at}.indices`, p.indices, accessors, 'accessor');
      if (p.material !== undefined) index(`${at}.material`, p.material, materials, 'material');
    });
  });
  nodes.forEach((n, i) => {
    if (n.mesh !== undefined) index(`nodes[${i}].mesh`, n.mesh, meshes, 'mesh');
    if (n.children !== undefined) {
      if (!Array.isArray(n.children)) fail(`nodes[${i}].children`, 'is not an array');
      (n.children as unknown[]).forEach((c, k) => index(`nodes[${i}].children[${k}]`, c, nodes, 'node'));
    }
  });
  scenes.forEach((s, i) => {
    if (s.nodes === undefined) return;
    if (!Array.isArray(s.nodes)) fail(`scenes[${i}].nodes`, 'is not an array');
    (s.nodes as unknown[]).forEach((c, k) => index(`scenes[${i}].nodes[${k}]`, c, nodes, 'node'));
  });
  if (json.scene !== undefined) index('scene', json.scene, scenes, 'scene');
}
