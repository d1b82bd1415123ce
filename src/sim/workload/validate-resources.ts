/**
 * The semantic checks of a manifest's resources — descriptor bindings, named buffers, the scene —
 * over JSON the schema (manifest-schema.ts) has already typed: files exist and have a usable
 * extension, (set, binding) pairs are unique, a buffer has exactly one content source, keys that
 * only mean something together come together; then defaults are filled in.
 * Invariant: reads only parts `ok` vouches for (the schema found nothing wrong there), so no type
 * is checked twice; problems are recorded with their key path, never thrown.
 */
import { describeJson, existingFile, key, report, type JsonChecks } from './json-checks.js';
import {
  SCENE_BUFFER_KINDS, STORAGE_IMAGE_VK_FORMATS, sceneFields, type CameraSpec, type DescriptorBinding, type FrameOverride, type DescriptorContent, type InstanceSpec,
  type ModelSpec, type SceneFieldSource, type NamedBuffer, type SceneSource, type SceneSpec, type StorageBufferContent,
  type StorageImageFormat, type TextureFile,
} from './manifest.js';
import { JSON_DATA_FILE, RAW_DATA_FILE } from './data-file.js';
import { TEXTURE_FILE } from './texture-files.js';
import type { Vouch } from './schema-issues.js';
import type { DescriptorJson, ManifestJson, SceneJson, StorageBufferJson } from './manifest-schema.js';

type Camera = NonNullable<Extract<DescriptorJson, { kind: 'uniformBuffer' }>['camera']>;
type InstanceJson = NonNullable<SceneJson['instances']>[number];
type Unit<T> = { value: T; path: string };

/** The entries of a list key that the schema vouches for, with their key paths. */
export function checkedEntries<T>(list: readonly T[] | undefined, path: string, v: Vouch): Unit<T>[] {
  if (list === undefined || !v.shapeOk(path)) return [];
  return list.map((value, i) => ({ value, path: key(path, i) })).filter((u) => v.ok(u.path));
}

const IDENTITY_3X4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];

/** A 3x4 matrix as 12 numbers, whether given flat or as 3 rows. */
export function flatTransform(t: number[] | number[][] | undefined): number[] {
  return t === undefined ? IDENTITY_3X4 : t.flat();
}

export function readDescriptors(c: JsonChecks, list: ManifestJson['descriptors'], v: Vouch): DescriptorBinding[] {
  const out: DescriptorBinding[] = [];
  const seen = new Map<string, number>();
  if (!v.shapeOk('descriptors')) return out;
  (list ?? []).forEach((d, i) => {
    const path = key('descriptors', i);
    if (!v.ok(key(path, 'set')) || !v.ok(key(path, 'binding'))) return;
    const set = d.set ?? 0;
    const first = seen.get(`${set}.${d.binding}`);
    if (first !== undefined) report(c, path, `set ${set} binding ${d.binding} is already described by descriptors[${first}]`);
    else seen.set(`${set}.${d.binding}`, i);
    if (!v.ok(path)) return;
    const content = readDescriptorContent(c, d, path);
    if (content) out.push({ set, binding: d.binding, ...content } as DescriptorBinding);
  });
  return out;
}

function readDescriptorContent(c: JsonChecks, d: DescriptorJson, path: string): DescriptorContent | undefined {
  switch (d.kind) {
    case 'accelerationStructure':
      return { kind: d.kind };
    case 'storageImage':
      return { kind: d.kind, format: STORAGE_IMAGE_VK_FORMATS[d.format] ?? (d.format as StorageImageFormat), role: d.role ?? 'output', ...(d.eachFrame ? { eachFrame: d.eachFrame } : {}) };
    case 'uniformBuffer': {
      const layout = d.layout ?? 'std140';
      const sources = (['value', 'camera', 'data'] as const).filter((k) => d[k] !== undefined);
      if (sources.length !== 1) {
        report(c, path, 'a uniform buffer needs exactly one of "value" (JSON matching the block), "camera" and "data" (the block\'s raw bytes, a .bin file)');
        return undefined;
      }
      if (d.camera === undefined) d.perFrame?.forEach((f, i) => {
        if (f.camera) report(c, key(key(key(path, 'perFrame'), i), 'camera'), 'only a uniform buffer filled from "camera" can follow a camera path');
      });
      const perFrame = d.perFrame?.map((f): FrameOverride => ({ ...(f.members ? { members: f.members } : {}), ...(f.camera ? { camera: f.camera } : {}) }));
      const extra = { ...(d.members ? { members: d.members } : {}), ...(perFrame ? { perFrame } : {}) };
      if (d.camera) {
        const camera = readCamera(c, d.camera, key(path, 'camera'));
        return camera && { kind: d.kind, layout, camera, ...extra };
      }
      if (d.data !== undefined) {
        const data = dataFile(c, d.data, key(path, 'data'), [RAW_DATA_FILE], 'a .bin file (the block\'s raw bytes), optionally .gz');
        return data ? { kind: d.kind, layout, data, ...extra } : undefined;
      }
      return { kind: d.kind, layout, value: d.value!, ...extra };
    }
    case 'storageBuffer': {
      const content = readStorageBufferContent(c, d, path);
      return content && d.id !== undefined ? { ...content, id: d.id } : content;
    }
    case 'sampledImages': {
      const common = { kind: d.kind, filter: d.filter ?? 'linear', wrap: d.wrap ?? 'repeat', ...(d.format ? { format: d.format } : {}), ...(d.mipmaps ? { mipmaps: d.mipmaps } : {}) } as const;
      if (d.files === 'scene') return { ...common, files: 'scene' };
      const files = d.files.map((f, i) => readTextureFile(c, f, key(key(path, 'files'), i)));
      return files.every((f) => f !== undefined) ? { ...common, files } : undefined;
    }
  }
}

/** An existing file whose name matches one of `patterns`. */
function dataFile(c: JsonChecks, rel: string, path: string, patterns: RegExp[], what: string): string | undefined {
  const file = existingFile(c, rel, path);
  if (file && !patterns.some((p) => p.test(file))) {
    report(c, path, `expected ${what}, found ${describeJson(rel)}`);
    return undefined;
  }
  return file;
}

/** The `buffers` section: named buffers, each a storage buffer's content plus `name`. */
export function readBuffers(c: JsonChecks, list: ManifestJson['buffers'], v: Vouch): NamedBuffer[] {
  return checkedEntries(list, 'buffers', v).flatMap(({ value, path }) => {
    const content = readStorageBufferContent(c, value, path);
    return content ? [{ name: value.name, key: path, content }] : [];
  });
}

function readStorageBufferContent(c: JsonChecks, b: StorageBufferJson, path: string): StorageBufferContent | undefined {
  const sources = (['from', 'data', 'value', 'elements'] as const).filter((k) => b[k] !== undefined);
  if (sources.length !== 1) {
    report(
      c, path,
      sources.length === 0
        ? 'a storage buffer needs one of "from": "scene" (with "what"), "data" (a .json or .bin file), "value" (inline JSON) or "elements" (an empty buffer the shader writes)'
        : `a storage buffer takes only one of ${sources.map((s) => `"${s}"`).join(', ')}`,
    );
    return undefined;
  }
  const layoutKeys = (['struct', 'element', 'hostStruct'] as const).filter((k) => b[k] !== undefined);
  if (layoutKeys.length > 1) report(c, key(path, layoutKeys[1]!), `give one of "struct", "element" and "hostStruct", found ${layoutKeys.map((k) => `"${k}"`).join(' and ')}`);
  const base: StorageBufferContent = {
    kind: 'storageBuffer', layout: b.layout ?? 'std430',
    ...(b.eachFrame ? { eachFrame: b.eachFrame } : {}),
    ...(b.struct !== undefined ? { struct: b.struct } : {}),
    ...(b.element !== undefined ? { element: b.element } : {}),
    ...(b.hostStruct !== undefined ? { hostStruct: Object.entries(b.hostStruct).map(([name, type]) => ({ name, type })) } : {}),
  };
  if (b.from === 'scene') {
    if (b.what === undefined) {
      report(c, key(path, 'what'), `missing (one of ${SCENE_BUFFER_KINDS.join(', ')})`);
      return undefined;
    }
    if (b.model !== undefined && !['vertices', 'indices', 'materials', 'materialIndices'].includes(b.what)) {
      report(c, key(path, 'model'), `only meaningful for vertices, indices, materials and materialIndices, not ${b.what}`);
    }
    if (b.field !== undefined && !(b.field in sceneFields(b.what))) {
      report(c, key(path, 'field'), `no field "${b.field}" in the scene's ${b.what} (fields: ${Object.keys(sceneFields(b.what)).filter((f) => f !== '').join(', ') || 'one unnamed value'})`);
    }
    return {
      ...base, from: 'scene', what: b.what,
      ...(b.fields ? { fields: b.fields as Record<string, SceneFieldSource> } : {}),
      ...(b.field !== undefined ? { field: b.field } : {}),
      ...(b.model !== undefined ? { model: b.model } : {}),
    };
  }
  for (const k of ['what', 'fields', 'field', 'model'] as const) {
    if (b[k] !== undefined) report(c, key(path, k), 'only meaningful with "from": "scene"');
  }
  if (b.data !== undefined) {
    const data = dataFile(c, b.data, key(path, 'data'), [JSON_DATA_FILE, RAW_DATA_FILE], 'a .json (values) or .bin (raw bytes) file, optionally .gz');
    return data ? { ...base, data } : undefined;
  }
  if (b.elements !== undefined) return { ...base, elements: b.elements };
  return { ...base, value: b.value! };
}

export function readCamera(c: JsonChecks, cam: Camera, path: string): CameraSpec | undefined {
  const near = cam.near ?? 0.1;
  const far = cam.far ?? 1000;
  let good = true;
  if (!(near > 0 && far > near)) {
    report(c, key(path, 'far'), `expected 0 < near < far, found near ${near}, far ${far}`);
    good = false;
  }
  if (cam.lookFrom.every((x, i) => x === cam.lookAt[i])) {
    report(c, key(path, 'lookAt'), 'equals lookFrom: the view direction is undefined');
    good = false;
  }
  return good ? {
    lookFrom: cam.lookFrom, lookAt: cam.lookAt, up: cam.up ?? [0, 1, 0], fovY: cam.fovY, near, far,
    ...(cam.flipY !== undefined ? { flipY: cam.flipY } : {}), ...(cam.members ? { members: cam.members } : {}),
  } : undefined;
}

export function readScene(c: JsonChecks, s: SceneJson, path: string): SceneSpec | undefined {
  const kinds = (['obj', 'gltf', 'procedural', 'models'] as const).filter((k) => s[k] !== undefined);
  let source: SceneSource | undefined;
  let models: ModelSpec[] | undefined;
  if (kinds.length !== 1) {
    report(c, path, kinds.length === 0 ? 'needs one of "obj", "gltf", "procedural" or "models"' : `takes only one of ${kinds.map((k) => `"${k}"`).join(', ')}`);
  } else if (s.models) {
    const read = s.models.map((m, i) => readModel(c, m, key(key(path, 'models'), i), i));
    if (read.every((m) => m !== undefined)) models = read as ModelSpec[];
  } else if (s.obj !== undefined || s.gltf !== undefined) {
    const kind = s.obj !== undefined ? 'obj' : 'gltf';
    const file = existingFile(c, s[kind]!, key(path, kind));
    if (file) source = { kind, file };
  } else {
    source = { kind: 'procedural', generator: s.procedural!, seed: s.seed ?? 0 };
  }
  if (s.seed !== undefined && s.procedural === undefined) report(c, key(path, 'seed'), 'only meaningful with "procedural"');
  if (!source && !models) return undefined;
  return {
    ...(source ? { source } : {}), ...(models ? { models } : {}), instances: (s.instances ?? []).map(instance), opaque: s.opaque ?? true,
    ...(s.conversions && s.conversions.length > 0 ? { conversions: s.conversions } : {}),
    ...(s.customIndexFrom === 'mesh' ? { customIndexFrom: 'mesh' as const } : {}),
  };
}

function instance(i: InstanceJson): InstanceSpec {
  return {
    mesh: i.mesh ?? 0, transform: flatTransform(i.transform), customIndex: i.customIndex ?? 0, mask: i.mask ?? 0xff,
    sbtOffset: i.sbtOffset ?? 0, flags: i.flags ?? [],
  };
}

/** One of `scene.models`: `{obj | gltf, name?, transform?, customIndex?, mask?, sbtOffset?, flags?}`. */
function readModel(c: JsonChecks, m: NonNullable<SceneJson['models']>[number], path: string, index: number): ModelSpec | undefined {
  const kinds = (['obj', 'gltf'] as const).filter((k) => m[k] !== undefined);
  if (kinds.length !== 1) {
    report(c, path, kinds.length === 0 ? 'needs one of "obj" or "gltf"' : 'takes only one of "obj", "gltf"');
    return undefined;
  }
  const kind = kinds[0]!;
  const file = existingFile(c, m[kind]!, key(path, kind));
  if (!file) return undefined;
  const { transform, mask, sbtOffset, flags } = instance(m);
  return {
    name: m.name ?? (m[kind] ?? `model${index}`).replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, ''),
    source: { kind, file }, transform, mask, sbtOffset, flags,
    ...(m.customIndex !== undefined ? { customIndex: m.customIndex } : {}),
  };
}

/**
 * One element of a sampler array: an image file (PNG, JPEG, KTX2; texture-files.ts), or
 * `{file, width, height}` for raw R8G8B8A8 texels (`.rgba8`, optionally `.gz`).
 */
function readTextureFile(c: JsonChecks, f: string | { file: string; width: number; height: number }, path: string): TextureFile | undefined {
  if (typeof f === 'string') {
    return dataFile(c, f, path, [TEXTURE_FILE], 'a .png, .jpg / .jpeg or .ktx2 file, or {"file": "x.rgba8", "width": w, "height": h}');
  }
  const file = dataFile(c, f.file, key(path, 'file'), [/\.rgba8(\.gz)?$/i], 'raw R8G8B8A8 texels (.rgba8 or .rgba8.gz)');
  return file ? { file, width: f.width, height: f.height } : undefined;
}
