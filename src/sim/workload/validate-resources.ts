/**
 * Validation of the resource parts of a manifest: descriptor bindings and the scene. Split from
 * validate-manifest.ts (which owns shaders and the SBT) because resources are their own concern.
 * Invariant: same as the validator's — problems are recorded with their key path, never thrown.
 */
import {
  array, boolean, describeJson, existingFile, finiteNumber, isJsonValue, isObject, key, nonNegativeInteger, object,
  oneOf, onlyKeys, report, string, vec3, type JsonChecks,
} from './json-checks.js';
import {
  CAMERA_QUANTITIES, EACH_FRAME, INSTANCE_FLAGS, SAMPLED_IMAGE_FORMATS, SCENE_CONVERSIONS, type SceneConversion, PROCEDURAL_SCENES, ELEMENT_TYPES, SCENE_BUFFER_KINDS, STORAGE_IMAGE_FORMATS, type AddressOf,
  type CameraQuantity, type CameraSpec, type DescriptorBinding, type FrameOverride, type DescriptorContent, type InstanceFlag, type InstanceSpec,
  type HostStructMember, type JsonObject, type JsonValue, type ModelSpec, type SceneFieldSource, type NamedBuffer, type SceneSource, type SceneSpec, type StorageBufferContent,
  type TextureFile,
} from './manifest.js';
import { JSON_DATA_FILE, RAW_DATA_FILE } from './data-file.js';
import { TEXTURE_FILE } from './texture-files.js';
import { cameraSchema, descriptorSchemas, instanceSchema, keysOf, modelSchema, namedBufferSchema, sceneSchema } from './manifest-schema.js';

const DESCRIPTOR_KINDS = ['accelerationStructure', 'storageImage', 'uniformBuffer', 'storageBuffer', 'sampledImages'] as const;

export function readJsonObject(c: JsonChecks, v: unknown, path: string): JsonObject | undefined {
  const obj = object(c, v, path);
  if (!obj) return undefined;
  if (!isJsonValue(obj)) {
    report(c, path, 'holds a value JSON cannot represent');
    return undefined;
  }
  return obj as JsonObject;
}

export function readDescriptors(c: JsonChecks, v: unknown): DescriptorBinding[] {
  const out: DescriptorBinding[] = [];
  if (v === undefined) return out;
  const seen = new Map<string, number>();
  (array(c, v, 'descriptors') ?? []).forEach((entry, i) => {
    const path = key('descriptors', i);
    const obj = object(c, entry, path);
    if (!obj) return;
    const set = obj.set === undefined ? 0 : nonNegativeInteger(c, obj.set, key(path, 'set'));
    const binding = obj.binding === undefined ? undefined : nonNegativeInteger(c, obj.binding, key(path, 'binding'));
    if (obj.binding === undefined) report(c, key(path, 'binding'), 'missing (the layout(binding = N) of the shader variable)');
    if (set !== undefined && binding !== undefined) {
      const id = `${set}.${binding}`;
      const first = seen.get(id);
      if (first !== undefined) report(c, path, `set ${set} binding ${binding} is already described by descriptors[${first}]`);
      else seen.set(id, i);
    }
    const kind = oneOf(c, obj.kind, DESCRIPTOR_KINDS, key(path, 'kind'));
    if (kind === undefined || set === undefined || binding === undefined) return;
    const content = readDescriptorContent(c, obj, kind, path);
    if (content) out.push({ set, binding, ...content } as DescriptorBinding);
  });
  return out;
}

type Content = DescriptorContent;

function readDescriptorContent(
  c: JsonChecks, obj: Record<string, unknown>, kind: (typeof DESCRIPTOR_KINDS)[number], path: string,
): Content | undefined {
  switch (kind) {
    case 'accelerationStructure':
      onlyKeys(c, obj, keysOf(descriptorSchemas.accelerationStructure), path);
      return { kind };
    case 'storageImage': {
      onlyKeys(c, obj, keysOf(descriptorSchemas.storageImage), path);
      const format = oneOf(c, obj.format, STORAGE_IMAGE_FORMATS, key(path, 'format'));
      const role = obj.role === undefined ? 'output' : oneOf(c, obj.role, ['output', 'accumulation', 'scratch'] as const, key(path, 'role'));
      const eachFrame = obj.eachFrame === undefined ? undefined : oneOf(c, obj.eachFrame, EACH_FRAME, key(path, 'eachFrame'));
      return format && role ? { kind, format, role, ...(eachFrame ? { eachFrame } : {}) } : undefined;
    }
    case 'uniformBuffer': {
      onlyKeys(c, obj, keysOf(descriptorSchemas.uniformBuffer), path);
      const layout = obj.layout === undefined ? 'std140' : oneOf(c, obj.layout, ['std140', 'std430', 'scalar'] as const, key(path, 'layout'));
      const sources = ['value', 'camera', 'data'].filter((k) => obj[k] !== undefined);
      if (sources.length !== 1) {
        report(c, path, 'a uniform buffer needs exactly one of "value" (JSON matching the block), "camera" and "data" (the block\'s raw bytes, a .bin file)');
        return undefined;
      }
      const base = obj.members === undefined ? undefined : readJsonObject(c, obj.members, key(path, 'members'));
      if (obj.members !== undefined && !base) return undefined;
      const perFrame = obj.perFrame === undefined ? undefined : readPerFrame(c, obj.perFrame, key(path, 'perFrame'), obj.camera !== undefined);
      if (obj.perFrame !== undefined && !perFrame) return undefined;
      const members = { ...(base ? { members: base } : {}), ...(perFrame ? { perFrame } : {}) };
      if (obj.camera !== undefined) {
        const camera = readCamera(c, obj.camera, key(path, 'camera'));
        return camera && layout ? { kind, layout, camera, ...members } : undefined;
      }
      if (obj.data !== undefined) {
        const data = existingFile(c, obj.data, key(path, 'data'));
        if (data && !RAW_DATA_FILE.test(data)) {
          report(c, key(path, 'data'), `expected a .bin file (the block's raw bytes), optionally .gz, found ${describeJson(obj.data)}`);
          return undefined;
        }
        return data && layout ? { kind, layout, data, ...members } : undefined;
      }
      const value = readJsonObject(c, obj.value, key(path, 'value'));
      return value && layout ? { kind, layout, value, ...members } : undefined;
    }
    case 'storageBuffer':
      return readStorageBuffer(c, obj, path);
    case 'sampledImages': {
      onlyKeys(c, obj, keysOf(descriptorSchemas.sampledImages), path);
      const format = obj.format === undefined ? undefined : oneOf(c, obj.format, SAMPLED_IMAGE_FORMATS, key(path, 'format'));
      if (obj.format !== undefined && !format) return undefined;
      const withFormat = format ? { format } : {};
      if (obj.files === 'scene') {
        const filter = obj.filter === undefined ? 'linear' : oneOf(c, obj.filter, ['linear', 'nearest'] as const, key(path, 'filter'));
        const wrap = obj.wrap === undefined ? 'repeat' : oneOf(c, obj.wrap, ['repeat', 'clampToEdge'] as const, key(path, 'wrap'));
        return filter && wrap ? { kind, files: 'scene', filter, wrap, ...withFormat } : undefined;
      }
      const list = array(c, obj.files, key(path, 'files'));
      if (list && list.length === 0) report(c, key(path, 'files'), 'expected at least one image file');
      const files = (list ?? []).map((f, i) => readTextureFile(c, f, key(key(path, 'files'), i)));
      const filter = obj.filter === undefined ? 'linear' : oneOf(c, obj.filter, ['linear', 'nearest'] as const, key(path, 'filter'));
      const wrap = obj.wrap === undefined ? 'repeat' : oneOf(c, obj.wrap, ['repeat', 'clampToEdge'] as const, key(path, 'wrap'));
      if (!list || files.some((f) => f === undefined) || !filter || !wrap) return undefined;
      return { kind, files: files as TextureFile[], filter, wrap, ...withFormat };
    }
  }
}

function readStorageBuffer(c: JsonChecks, obj: Record<string, unknown>, path: string): Content | undefined {
  onlyKeys(c, obj, keysOf(descriptorSchemas.storageBuffer), path);
  const id = obj.id === undefined ? undefined : string(c, obj.id, key(path, 'id'));
  const content = readStorageBufferContent(c, obj, path);
  return content && id !== undefined ? { ...content, id } : content;
}

/** A uniform buffer's `perFrame`: a non-empty list of `{members?, camera?}`; `camera` only over a `camera` buffer. */
function readPerFrame(c: JsonChecks, v: unknown, path: string, hasCamera: boolean): FrameOverride[] | undefined {
  const list = array(c, v, path);
  if (!list) return undefined;
  if (list.length === 0) report(c, path, 'expected at least one frame\'s {members, camera}');
  const before = c.problems.length;
  const out = list.map((entry, i): FrameOverride => {
    const p = key(path, i);
    const obj = object(c, entry, p);
    if (!obj) return {};
    onlyKeys(c, obj, ['members', 'camera'], p);
    const f: FrameOverride = {};
    if (obj.members !== undefined) {
      const m = readJsonObject(c, obj.members, key(p, 'members'));
      if (m) f.members = m;
    }
    if (obj.camera !== undefined) {
      if (!hasCamera) report(c, key(p, 'camera'), 'only a uniform buffer filled from "camera" can follow a camera path');
      const cam = object(c, obj.camera, key(p, 'camera'));
      if (cam) {
        onlyKeys(c, cam, ['lookFrom', 'lookAt', 'up', 'fovY', 'near', 'far'], key(p, 'camera'));
        const merged = readCamera(c, { lookFrom: [0, 0, 1], lookAt: [0, 0, 0], fovY: 60, ...cam }, key(p, 'camera'));
        if (merged) {
          const partial: Record<string, unknown> = {};
          for (const k of Object.keys(cam)) partial[k] = (merged as unknown as Record<string, unknown>)[k];
          f.camera = partial as FrameOverride['camera'];
        }
      }
    }
    return f;
  });
  return c.problems.length > before ? undefined : out;
}

/** The `buffers` section: named buffers, each a storage buffer's content plus `name`. */
export function readBuffers(c: JsonChecks, v: unknown): NamedBuffer[] {
  const out: NamedBuffer[] = [];
  if (v === undefined) return out;
  (array(c, v, 'buffers') ?? []).forEach((entry, i) => {
    const path = key('buffers', i);
    const obj = object(c, entry, path);
    if (!obj) return;
    onlyKeys(c, obj, keysOf(namedBufferSchema), path);
    if (obj.name === undefined) report(c, key(path, 'name'), 'missing (the name values use in {"addressOf": name})');
    const name = obj.name === undefined ? undefined : string(c, obj.name, key(path, 'name'));
    const content = readStorageBufferContent(c, obj, path);
    if (name !== undefined && content) out.push({ name, key: path, content });
  });
  return out;
}

function readStorageBufferContent(c: JsonChecks, obj: Record<string, unknown>, path: string): StorageBufferContent | undefined {
  const layout = obj.layout === undefined ? 'std430' : oneOf(c, obj.layout, ['std430', 'scalar'] as const, key(path, 'layout'));
  const sources = ['from', 'data', 'value', 'elements'].filter((k) => obj[k] !== undefined);
  if (sources.length !== 1) {
    report(
      c, path,
      sources.length === 0
        ? 'a storage buffer needs one of "from": "scene" (with "what"), "data" (a .json or .bin file), "value" (inline JSON) or "elements" (an empty buffer the shader writes)'
        : `a storage buffer takes only one of ${sources.map((s) => `"${s}"`).join(', ')}`,
    );
    return undefined;
  }
  if (!layout) return undefined;
  const extra: Partial<StorageBufferContent> = {};
  if (obj.eachFrame !== undefined) {
    const eachFrame = oneOf(c, obj.eachFrame, EACH_FRAME, key(path, 'eachFrame'));
    if (eachFrame) extra.eachFrame = eachFrame;
  }
  if (obj.struct !== undefined) {
    const struct = string(c, obj.struct, key(path, 'struct'));
    if (struct !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(struct)) report(c, key(path, 'struct'), `expected a GLSL struct name, found ${describeJson(struct)}`);
    else if (struct !== undefined) extra.struct = struct;
  }
  if (obj.element !== undefined) {
    const element = oneOf(c, obj.element, ELEMENT_TYPES, key(path, 'element'));
    if (element) extra.element = element;
  }
  if (obj.hostStruct !== undefined) {
    const members = object(c, obj.hostStruct, key(path, 'hostStruct'));
    if (members) {
      const list: HostStructMember[] = [];
      for (const [name, type] of Object.entries(members)) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) report(c, key(key(path, 'hostStruct'), name), 'expected a member name (an identifier)');
        const t = oneOf(c, type, ELEMENT_TYPES, key(key(path, 'hostStruct'), name));
        if (t) list.push({ name, type: t });
      }
      if (list.length === 0) report(c, key(path, 'hostStruct'), 'expected at least one member {"name": "vec3", ...}');
      else extra.hostStruct = list;
    }
  }
  const layoutKeys = ['struct', 'element', 'hostStruct'].filter((k) => obj[k] !== undefined);
  if (layoutKeys.length > 1) report(c, key(path, layoutKeys[1]!), `give one of "struct", "element" and "hostStruct", found ${layoutKeys.map((k) => `"${k}"`).join(' and ')}`);
  if (obj.from !== undefined) {
    if (obj.from !== 'scene') {
      report(c, key(path, 'from'), `expected "scene", found ${describeJson(obj.from)}`);
      return undefined;
    }
    if (obj.what === undefined) {
      report(c, key(path, 'what'), `missing (one of ${SCENE_BUFFER_KINDS.join(', ')})`);
      return undefined;
    }
    const what = oneOf(c, obj.what, SCENE_BUFFER_KINDS, key(path, 'what'));
    let fields: Record<string, SceneFieldSource> | undefined;
    if (obj.fields !== undefined) {
      const f = object(c, obj.fields, key(path, 'fields'));
      if (f) {
        fields = {};
        for (const [member, field] of Object.entries(f)) {
          const p = key(key(path, 'fields'), member);
          if (isObject(field)) {
            const a = readAddressOf(c, field, p);
            if (a) fields[member] = a;
          } else if (typeof field === 'number' || Array.isArray(field)) {
            if (typeof field === 'number' ? Number.isFinite(field) : field.length > 0 && field.every((x) => typeof x === 'number' && Number.isFinite(x))) {
              fields[member] = field as number | number[];
            } else {
              report(c, p, `expected a scene field name, {"addressOf": ...} or a constant (a number or an array of numbers), found ${describeJson(field)}`);
            }
          } else {
            const s = string(c, field, p);
            if (s) fields[member] = s;
          }
        }
      }
    }
    if (obj.model !== undefined) {
      const model = nonNegativeInteger(c, obj.model, key(path, 'model'));
      if (model !== undefined) extra.model = model;
      if (what && !['vertices', 'indices', 'materials', 'materialIndices'].includes(what)) {
        report(c, key(path, 'model'), `only meaningful for vertices, indices, materials and materialIndices, not ${what}`);
      }
    }
    if (!what) return undefined;
    return { kind: 'storageBuffer', layout, from: 'scene', what, ...(fields ? { fields } : {}), ...extra };
  }
  for (const k of ['what', 'fields', 'model']) {
    if (obj[k] !== undefined) report(c, key(path, k), 'only meaningful with "from": "scene"');
  }
  if (obj.data !== undefined) {
    const data = existingFile(c, obj.data, key(path, 'data'));
    if (data && !JSON_DATA_FILE.test(data) && !RAW_DATA_FILE.test(data)) {
      report(c, key(path, 'data'), `expected a .json (values) or .bin (raw bytes) file, optionally .gz, found ${describeJson(obj.data)}`);
      return undefined;
    }
    return data ? { kind: 'storageBuffer', layout, data, ...extra } : undefined;
  }
  if (obj.elements !== undefined) {
    const elements = nonNegativeInteger(c, obj.elements, key(path, 'elements'), 1);
    return elements === undefined ? undefined : { kind: 'storageBuffer', layout, elements, ...extra };
  }
  if (!isJsonValue(obj.value)) {
    report(c, key(path, 'value'), 'holds a value JSON cannot represent');
    return undefined;
  }
  return { kind: 'storageBuffer', layout, value: obj.value as JsonValue, ...extra };
}

/** `{"addressOf": name, "offset"?: n, "element"?: k}` (the name is checked against the buffers later). */
export function readAddressOf(c: JsonChecks, obj: Record<string, unknown>, path: string): AddressOf | undefined {
  onlyKeys(c, obj, ['addressOf', 'offset', 'element'], path);
  if (obj.addressOf === undefined) {
    report(c, path, 'expected a scene field name or {"addressOf": "<buffer name>", "offset": n}');
    return undefined;
  }
  const name = string(c, obj.addressOf, key(path, 'addressOf'));
  const offset = obj.offset === undefined ? 0 : nonNegativeInteger(c, obj.offset, key(path, 'offset'));
  const element = obj.element === undefined ? 0 : nonNegativeInteger(c, obj.element, key(path, 'element'));
  if (name === undefined || offset === undefined || element === undefined) return undefined;
  return { addressOf: name, offset, element };
}

export function readCamera(c: JsonChecks, v: unknown, path: string): CameraSpec | undefined {
  const obj = object(c, v, path);
  if (!obj) return undefined;
  onlyKeys(c, obj, keysOf(cameraSchema), path);
  const flipY = obj.flipY === undefined ? undefined : boolean(c, obj.flipY, key(path, 'flipY'));
  let members: Partial<Record<CameraQuantity, string>> | undefined;
  if (obj.members !== undefined) {
    const m = object(c, obj.members, key(path, 'members'));
    if (m) {
      members = {};
      for (const [q, member] of Object.entries(m)) {
        const quantity = oneOf(c, q, CAMERA_QUANTITIES, key(key(path, 'members'), q));
        const name = string(c, member, key(key(path, 'members'), q));
        if (quantity && name !== undefined) members[quantity] = name;
      }
    }
  }
  const need = (k: string, hint: string): unknown => {
    if (obj[k] === undefined) report(c, key(path, k), `missing (${hint})`);
    return obj[k];
  };
  const lookFrom = need('lookFrom', 'the eye position [x, y, z]') === undefined ? undefined : vec3(c, obj.lookFrom, key(path, 'lookFrom'));
  const lookAt = need('lookAt', 'the point looked at [x, y, z]') === undefined ? undefined : vec3(c, obj.lookAt, key(path, 'lookAt'));
  const up = obj.up === undefined ? ([0, 1, 0] as [number, number, number]) : vec3(c, obj.up, key(path, 'up'));
  const fovY = need('fovY', 'vertical field of view in degrees') === undefined ? undefined : finiteNumber(c, obj.fovY, key(path, 'fovY'));
  if (fovY !== undefined && !(fovY > 0 && fovY < 180)) report(c, key(path, 'fovY'), `expected degrees between 0 and 180, found ${fovY}`);
  const near = obj.near === undefined ? 0.1 : finiteNumber(c, obj.near, key(path, 'near'));
  const far = obj.far === undefined ? 1000 : finiteNumber(c, obj.far, key(path, 'far'));
  if (near !== undefined && far !== undefined && !(near > 0 && far > near)) {
    report(c, key(path, 'far'), `expected 0 < near < far, found near ${near}, far ${far}`);
  }
  if (lookFrom && lookAt && lookFrom.every((x, i) => x === lookAt[i])) report(c, key(path, 'lookAt'), 'equals lookFrom: the view direction is undefined');
  if (!lookFrom || !lookAt || !up || fovY === undefined || near === undefined || far === undefined) return undefined;
  if (!(fovY > 0 && fovY < 180) || !(near > 0 && far > near)) return undefined;
  return { lookFrom, lookAt, up, fovY, near, far, ...(flipY !== undefined ? { flipY } : {}), ...(members ? { members } : {}) };
}

export function readScene(c: JsonChecks, v: unknown, path: string): SceneSpec | undefined {
  const obj = object(c, v, path);
  if (!obj) return undefined;
  onlyKeys(c, obj, keysOf(sceneSchema), path);
  const conversions: SceneConversion[] = [];
  if (obj.conversions !== undefined) {
    (array(c, obj.conversions, key(path, 'conversions')) ?? []).forEach((f, i) => {
      const conversion = oneOf(c, f, SCENE_CONVERSIONS, key(key(path, 'conversions'), i));
      if (conversion) conversions.push(conversion);
    });
  }
  const kinds = ['obj', 'gltf', 'procedural', 'models'].filter((k) => obj[k] !== undefined);
  let source: SceneSource | undefined;
  let models: ModelSpec[] | undefined;
  if (kinds.length !== 1) {
    report(c, path, kinds.length === 0 ? 'needs one of "obj", "gltf", "procedural" or "models"' : `takes only one of ${kinds.map((k) => `"${k}"`).join(', ')}`);
  } else if (obj.models !== undefined) {
    const list = array(c, obj.models, key(path, 'models'));
    if (list && list.length === 0) report(c, key(path, 'models'), 'expected at least one model');
    const read = (list ?? []).map((m, i) => readModel(c, m, key(key(path, 'models'), i), i));
    if (list && list.length > 0 && read.every((m) => m !== undefined)) models = read as ModelSpec[];
  } else if (obj.obj !== undefined) {
    const file = existingFile(c, obj.obj, key(path, 'obj'));
    if (file) source = { kind: 'obj', file };
  } else if (obj.gltf !== undefined) {
    const file = existingFile(c, obj.gltf, key(path, 'gltf'));
    if (file) source = { kind: 'gltf', file };
  } else {
    const generator = oneOf(c, obj.procedural, PROCEDURAL_SCENES, key(path, 'procedural'));
    const seed = obj.seed === undefined ? 0 : nonNegativeInteger(c, obj.seed, key(path, 'seed'));
    if (generator && seed !== undefined) source = { kind: 'procedural', generator, seed };
  }
  if (obj.seed !== undefined && obj.procedural === undefined) report(c, key(path, 'seed'), 'only meaningful with "procedural"');
  const opaque = obj.opaque === undefined ? true : boolean(c, obj.opaque, key(path, 'opaque'));
  const instances: InstanceSpec[] = [];
  if (obj.instances !== undefined) {
    (array(c, obj.instances, key(path, 'instances')) ?? []).forEach((entry, i) => {
      const inst = readInstance(c, entry, key(key(path, 'instances'), i));
      if (inst) instances.push(inst);
    });
  }
  if ((!source && !models) || opaque === undefined) return undefined;
  return { ...(source ? { source } : {}), ...(models ? { models } : {}), instances, opaque, ...(conversions.length > 0 ? { conversions } : {}) };
}

/** One of `scene.models`: `{obj | gltf, name?, transform?, customIndex?, mask?, sbtOffset?, flags?}`. */
function readModel(c: JsonChecks, v: unknown, path: string, index: number): ModelSpec | undefined {
  const obj = object(c, v, path);
  if (!obj) return undefined;
  onlyKeys(c, obj, keysOf(modelSchema), path);
  const kinds = ['obj', 'gltf'].filter((k) => obj[k] !== undefined);
  let source: ModelSpec['source'] | undefined;
  if (kinds.length !== 1) {
    report(c, path, kinds.length === 0 ? 'needs one of "obj" or "gltf"' : 'takes only one of "obj", "gltf"');
  } else {
    const kind = kinds[0] as 'obj' | 'gltf';
    const file = existingFile(c, obj[kind], key(path, kind));
    if (file) source = { kind, file };
  }
  const name = obj.name === undefined
    ? (typeof obj.obj === 'string' ? obj.obj : typeof obj.gltf === 'string' ? obj.gltf : `model${index}`).replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '')
    : string(c, obj.name, key(path, 'name'));
  // The instance fields read exactly as an instance's, so one reader checks both.
  const inst = readInstance(c, { ...Object.fromEntries(Object.entries(obj).filter(([k]) => ['transform', 'customIndex', 'mask', 'sbtOffset', 'flags'].includes(k))) }, path);
  if (!source || name === undefined || !inst) return undefined;
  return {
    name, source, transform: inst.transform, mask: inst.mask, sbtOffset: inst.sbtOffset, flags: inst.flags,
    ...(obj.customIndex !== undefined ? { customIndex: inst.customIndex } : {}),
  };
}

function readInstance(c: JsonChecks, v: unknown, path: string): InstanceSpec | undefined {
  const obj = object(c, v, path);
  if (!obj) return undefined;
  onlyKeys(c, obj, keysOf(instanceSchema), path);
  let mesh: number | string | undefined = 0;
  if (obj.mesh !== undefined) {
    mesh = typeof obj.mesh === 'string' ? string(c, obj.mesh, key(path, 'mesh')) : nonNegativeInteger(c, obj.mesh, key(path, 'mesh'));
  }
  let transform: number[] | undefined = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];
  if (obj.transform !== undefined) {
    const t = obj.transform;
    const flat = Array.isArray(t) && t.length === 3 && t.every((row) => Array.isArray(row)) ? (t as unknown[][]).flat() : t;
    if (Array.isArray(flat) && flat.length === 12 && flat.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      transform = flat as number[];
    } else {
      report(c, key(path, 'transform'), `expected a 3x4 row-major matrix (12 numbers, or 3 rows of 4), found ${describeJson(t)}`);
      transform = undefined;
    }
  }
  const customIndex = obj.customIndex === undefined ? 0 : nonNegativeInteger(c, obj.customIndex, key(path, 'customIndex'));
  if (customIndex !== undefined && customIndex >= 1 << 24) report(c, key(path, 'customIndex'), `expected a 24-bit value, found ${customIndex}`);
  const mask = obj.mask === undefined ? 0xff : nonNegativeInteger(c, obj.mask, key(path, 'mask'));
  if (mask !== undefined && mask > 0xff) report(c, key(path, 'mask'), `expected an 8-bit mask (0..255), found ${mask}`);
  const sbtOffset = obj.sbtOffset === undefined ? 0 : nonNegativeInteger(c, obj.sbtOffset, key(path, 'sbtOffset'));
  const flags: InstanceFlag[] = [];
  if (obj.flags !== undefined) {
    (array(c, obj.flags, key(path, 'flags')) ?? []).forEach((f, i) => {
      const flag = oneOf(c, f, INSTANCE_FLAGS, key(key(path, 'flags'), i));
      if (flag) flags.push(flag);
    });
  }
  if (mesh === undefined || !transform || customIndex === undefined || mask === undefined || sbtOffset === undefined) return undefined;
  if (customIndex >= 1 << 24 || mask > 0xff) return undefined;
  return { mesh, transform, customIndex, mask, sbtOffset, flags };
}


/**
 * One element of a sampler array: an image file (PNG, JPEG, KTX2; texture-files.ts), or
 * `{file, width, height}` for raw R8G8B8A8 texels (`.rgba8`, optionally `.gz`).
 */
function readTextureFile(c: JsonChecks, v: unknown, path: string): TextureFile | undefined {
  if (isObject(v)) {
    onlyKeys(c, v, ['file', 'width', 'height'], path);
    const file = existingFile(c, v.file, key(path, 'file'));
    const width = nonNegativeInteger(c, v.width, key(path, 'width'), 1);
    const height = nonNegativeInteger(c, v.height, key(path, 'height'), 1);
    if (file && !/\.rgba8(\.gz)?$/i.test(file)) report(c, key(path, 'file'), `expected raw R8G8B8A8 texels (.rgba8 or .rgba8.gz), found ${describeJson(v.file)}`);
    return file && width !== undefined && height !== undefined ? { file, width, height } : undefined;
  }
  const abs = existingFile(c, v, path);
  if (abs && !TEXTURE_FILE.test(abs)) {
    report(c, path, `expected a .png, .jpg / .jpeg or .ktx2 file, or {"file": "x.rgba8", "width": w, "height": h}, found ${describeJson(v)}`);
    return undefined;
  }
  return abs;
}
