/**
 * A manifest against the compiled shaders it names: what `vkCreateRayTracingPipelinesKHR` and
 * `vkUpdateDescriptorSets` would reject, reported before anything runs. Every binding a shader
 * declares needs a descriptor of the matching kind (and image format); every JSON value the
 * manifest gives a block (uniform values, the camera, storage-buffer values, push constants,
 * shader records) must pack into that block's layout; scene buffers must provide every member
 * the shader's element struct declares; spec constant ids must exist.
 * Invariant: pure — reads the manifest and the modules, returns messages naming the manifest
 * key path and the shader; never throws for a mismatch.
 */
import type { Global, Module } from '../../ir/module.js';
import { placeholderExpression, placeholderProblem } from './run-placeholders.js';
import { typeName, typeOf, type TypeId, type TypeTable } from '../../ir/types.js';
import { cameraMemberValues } from './camera.js';
import {
  SCENE_BUFFER_FIELDS, SHADER_STAGES, sceneFields, type DescriptorBinding, type SceneFieldSource, type JsonObject, type JsonValue, type ShaderRecordData, type WorkloadManifest,
} from './manifest.js';
import { LayoutPackError, layoutSize, packMembers, packValue, type PackOptions } from './pack-layout.js';
import { structElementLayout } from '../host/buffer-contents.js';

/** Addresses are not known before the host places buffers; their names were checked at load. */
const ANY_ADDRESS: PackOptions = {
  resolveAddress: (v) => (typeof v === 'object' && v !== null && 'addressOf' in v ? 0n : undefined),
};

/** A compiled shader module by absolute file path, as the manifest names shaders. */
export type ModuleOf = (file: string) => Module | undefined;

type DescriptorKind = DescriptorBinding['kind'];

/** Compiled modules in SBT order, the shape the pipeline driver already has (structurally typed). */
export interface SbtModules {
  raygen: Module;
  miss: Module[];
  hitGroups: { closestHit?: Module; anyHit?: Module; intersection?: Module }[];
  callables: Module[];
}

/** A `ModuleOf` for modules arranged in SBT order: `checkManifestInterfaces(m, moduleLookup(m, stages))`. */
export function moduleLookup(manifest: WorkloadManifest, stages: SbtModules): ModuleOf {
  const byFile = new Map<string, Module>();
  byFile.set(manifest.raygen, stages.raygen);
  manifest.miss.forEach((e, i) => stages.miss[i] && byFile.set(e.shader, stages.miss[i]!));
  manifest.callables.forEach((e, i) => stages.callables[i] && byFile.set(e.shader, stages.callables[i]!));
  manifest.hitGroups.forEach((g, i) => {
    const got = stages.hitGroups[i];
    if (!got) return;
    for (const role of ['closestHit', 'anyHit', 'intersection'] as const) {
      const file = g[role];
      const m = got[role];
      if (file && m) byFile.set(file, m);
    }
  });
  return (file) => byFile.get(file);
}


export function checkManifestInterfaces(manifest: WorkloadManifest, moduleOf: ModuleOf): string[] {
  const problems: string[] = [];
  const at = (path: string, message: string) => problems.push(`${manifest.path}: ${path}: ${message}`);
  const files = SHADER_STAGES.flatMap((s) => manifest.shaders[s].map((x) => x.file));
  const usedBindings = new Set<string>();
  const specIds = new Set<number>();
  let pushConstantSeen = false;
  /** Every stage's push_constant block: one range, which stages may declare differently (a prefix, other names). */
  const pushDeclarations: { m: Module; g: Global; file: string }[] = [];
  /** Uniform blocks by descriptor index: stages may declare one binding differently (checked together). */
  const uniformDeclarations = new Map<number, { m: Module; g: Global; file: string }[]>();

  for (const file of files) {
    const m = moduleOf(file);
    if (!m) continue; // not compiled (compile errors are reported by the compiler)
    m.constants.forEach((c) => c.specId !== undefined && specIds.add(c.specId));
    for (const g of m.globals) {
      if (g.storage === 'pushConstant') {
        pushConstantSeen = true;
        if (!manifest.pushConstants) at('pushConstants', `missing: ${file} declares push_constant block ${blockName(m, g)}`);
        else pushDeclarations.push({ m, g, file });
        continue;
      }
      if (g.set === undefined || g.binding === undefined) continue;
      const kind = descriptorKind(m.types, g);
      if (!kind) continue;
      usedBindings.add(`${g.set}.${g.binding}`);
      const index = manifest.descriptors.findIndex((d) => d.set === g.set && d.binding === g.binding);
      if (index < 0) {
        at('descriptors', `missing: ${file} declares ${g.name} (set ${g.set}, binding ${g.binding}, ${kind.kind})`);
        continue;
      }
      const d = manifest.descriptors[index]!;
      if (d.kind === 'uniformBuffer' && kind.kind === 'uniformBuffer') {
        uniformDeclarations.set(index, [...(uniformDeclarations.get(index) ?? []), { m, g, file }]);
        continue;
      }
      checkDescriptor(manifest, d, `descriptors[${index}]`, m, g, kind, file, at);
    }
  }
  for (const [index, declarations] of uniformDeclarations) {
    checkUniformBuffer(manifest, manifest.descriptors[index] as Extract<DescriptorBinding, { kind: 'uniformBuffer' }>, `descriptors[${index}]`, declarations, at);
  }

  if (manifest.pushConstants && pushDeclarations.length > 0) {
    const value = substitutePlaceholders(manifest.pushConstants);
    anyDeclarationPasses(pushDeclarations, (types, block, file, report) => tryPack(report, 'pushConstants', types, block, fitToBlock(types, block, value), file), at);
  }
  checkShaderRecords(manifest, moduleOf, at);
  for (const id of Object.keys(manifest.specConstants)) {
    if (!specIds.has(Number(id))) at(`specConstants.${id}`, 'no shader declares layout(constant_id = ' + id + ')');
  }
  if (manifest.pushConstants && !pushConstantSeen) at('pushConstants', 'no shader declares a push_constant block');
  checkNamedStructs(manifest, files.map(moduleOf).filter((m): m is Module => m !== undefined), usedBindings, at);
  manifest.descriptors.forEach((d, i) => {
    const usedThroughAddress = d.kind === 'storageBuffer' && (d.from === 'scene' || d.id !== undefined);
    if (!usedBindings.has(`${d.set}.${d.binding}`) && !usedThroughAddress) {
      const hint = d.kind === 'storageBuffer' ? ' (a buffer reached only by device address goes in "buffers", or give it an "id")' : '';
      at(`descriptors[${i}]`, `no shader declares set ${d.set}, binding ${d.binding}${hint}`);
    }
  });
  return problems;
}

function checkDescriptor(
  manifest: WorkloadManifest, d: DescriptorBinding, path: string, m: Module, g: Global,
  kind: { kind: DescriptorKind; format?: string }, file: string, at: (path: string, message: string) => void,
): void {
  if (d.kind !== kind.kind) {
    at(`${path}.kind`, `"${d.kind}" but ${file} declares ${g.name} (set ${g.set}, binding ${g.binding}) as ${kind.kind}`);
    return;
  }
  const block = pointee(m.types, g);
  switch (d.kind) {
    case 'storageImage':
      if (kind.format && kind.format !== 'unknown' && kind.format !== d.format) {
        at(`${path}.format`, `"${d.format}" but ${file} declares ${g.name} with layout(${kind.format})`);
      }
      return;
    case 'storageBuffer':
      // With a hostStruct the value is the host's elements, not the shader's view of the block.
      if (d.value !== undefined && !d.hostStruct) tryPack(at, `${path}.value`, m.types, block, fitToBlock(m.types, block, d.value), file);
      if (d.from === 'scene' && d.what && !d.hostStruct) checkSceneFields(m.types, block, d.what, d.fields ?? {}, `${path}`, file, at, d.field);
      return;
    default:
      return;
  }
}

/** A check of one declaration of a block; `at` receives its problems. */
type DeclarationCheck = (types: TypeTable, block: TypeId, file: string, at: (p: string, msg: string) => void) => void;

/**
 * `check` against each declaration of one block (stages may declare a binding or the push constant
 * range differently; the host binds one buffer): no problem when one declaration passes, else what
 * each differing declaration says at each key.
 */
function anyDeclarationPasses(declarations: readonly { m: Module; g: Global; file: string }[], check: DeclarationCheck, at: (path: string, message: string) => void): void {
  const all: { found: [string, string][]; file: string }[] = [];
  for (const { m, g, file } of declarations) {
    const found: [string, string][] = [];
    check(m.types, pointee(m.types, g), file, (p, msg) => found.push([p, msg]));
    if (found.length === 0) return;
    all.push({ found, file });
  }
  // Every declaration refuses it: say what each different one says at that key (a block declared
  // with another member list), not only the first's view; the same block in more files once.
  const first = all[0];
  for (const [p, msg] of first?.found ?? []) {
    const said = new Set([msg.split(first!.file).join('')]);
    const parts = [msg];
    for (const { found, file } of all.slice(1)) {
      for (const [q, other] of found) {
        const core = other.split(file).join('');
        if (q !== p || said.has(core)) continue;
        said.add(core);
        parts.push(other);
      }
    }
    at(p, parts.join('; '));
  }
}

/**
 * A uniform buffer against every stage's declaration of its binding. Vulkan lets stages declare a
 * binding differently (a raygen's block without the member a closest-hit reads); the host binds one
 * buffer. So `value` and `camera` must fit some declaration, each `members` entry must name a
 * member of some declaration, and raw `data` must cover the largest one.
 */
function checkUniformBuffer(
  manifest: WorkloadManifest, d: Extract<DescriptorBinding, { kind: 'uniformBuffer' }>, path: string,
  declarations: { m: Module; g: Global; file: string }[], at: (path: string, message: string) => void,
): void {
  const aspect = manifest.launch.width / manifest.launch.height;
  const anyDeclaration = (check: DeclarationCheck): void => anyDeclarationPasses(declarations, check, at);
  if (d.camera) {
    const camera = d.camera;
    anyDeclaration((types, block, file, report) => {
      try {
        cameraMemberValues(camera, aspect, types, block, `${path}.camera`);
      } catch (e) {
        if (!(e instanceof LayoutPackError)) throw e;
        report(e.path, `${e.message.slice(e.path.length + 2)} (block ${structName(types, block)} in ${file})`);
      }
    });
  } else if (!d.data) {
    const value = substitutePlaceholders(d.value!);
    anyDeclaration((types, block, file, report) => tryPack(report, `${path}.value`, types, block, fitToBlock(types, block, value), file));
  }
  for (const [name, value] of Object.entries(d.members ?? {})) {
    anyDeclaration((types, block, file, report) => tryPackMembers(report, `${path}.members`, types, block, { [name]: value }, file));
  }
  d.perFrame?.forEach((f, i) => {
    for (const [name, value] of Object.entries(f.members ?? {})) {
      anyDeclaration((types, block, file, report) => tryPackMembers(report, `${path}.perFrame[${i}].members`, types, block, { [name]: value }, file));
    }
  });
}

/** Each member of the runtime array's element struct must be a scene field (after renaming). */
function checkSceneFields(
  types: TypeTable, block: TypeId, what: keyof typeof SCENE_BUFFER_FIELDS, fields: Record<string, SceneFieldSource>, path: string,
  file: string, at: (path: string, message: string) => void, field?: string,
): void {
  const t = typeOf(types, block);
  if (t.kind !== 'struct') return;
  const last = t.members[t.members.length - 1];
  const lt = last ? typeOf(types, last.type) : undefined;
  if (!lt || lt.kind !== 'runtimeArray') {
    at(path, `${file} declares ${t.name} without a runtime array to hold the scene's ${what}`);
    return;
  }
  const elem = typeOf(types, lt.elem);
  const known = sceneFields(what);
  if (elem.kind !== 'struct') {
    // Scalars / vectors take the record's single value; records of named fields need the host's layout.
    if (!('' in known) && field === undefined) {
      at(path, `${file} reads the ${what} as ${typeName(types, lt.elem)} elements, not a struct: give "field" when each element is one field (a separate normal buffer: "field": "normal"), or "hostStruct" with the host's element struct (e.g. {"pos": "vec3", "normal": "vec3", "uv": "vec2"}), laid out by "layout"`);
    }
    return;
  }
  for (const mem of elem.members) {
    const field = fields[mem.name] ?? mem.name;
    if (typeof field !== 'string') continue; // an address, resolved by the host
    if (!(field in known)) {
      at(
        fields[mem.name] ? `${path}.fields.${mem.name}` : `${path}.what`,
        `${file}'s ${elem.name} member "${mem.name}" has no scene field "${field}" in ${what} (fields: ${Object.keys(known).join(', ')}; map it with "fields")`,
      );
    }
  }
}

function checkShaderRecords(manifest: WorkloadManifest, moduleOf: ModuleOf, at: (path: string, message: string) => void): void {
  const entries: { path: string; files: string[]; record?: ShaderRecordData }[] = [
    { path: 'raygenShaderRecord', files: [manifest.raygen], ...(manifest.raygenShaderRecord ? { record: manifest.raygenShaderRecord } : {}) },
    ...manifest.hitGroups.map((g, i) => ({
      path: `hitGroups[${i}].shaderRecord`,
      files: [g.closestHit, g.anyHit, g.intersection].filter((f): f is string => f !== undefined),
      ...(g.shaderRecord ? { record: g.shaderRecord } : {}),
    })),
    ...manifest.miss.map((e, i) => ({ path: `miss[${i}].shaderRecord`, files: [e.shader], ...(e.shaderRecord ? { record: e.shaderRecord } : {}) })),
    ...manifest.callables.map((e, i) => ({ path: `callables[${i}].shaderRecord`, files: [e.shader], ...(e.shaderRecord ? { record: e.shaderRecord } : {}) })),
  ];
  for (const e of entries) {
    let declared = false;
    for (const file of e.files) {
      const m = moduleOf(file);
      const g = m?.globals.find((x) => x.storage === 'shaderRecordBuffer');
      if (!m || !g) continue;
      declared = true;
      if (!e.record) at(e.path, `missing: ${file} reads shaderRecordEXT block ${blockName(m, g)}`);
      else tryPack(at, e.path, m.types, pointee(m.types, g), e.record, file);
    }
    if (e.record && !declared) at(e.path, `no shader of this SBT entry declares a shaderRecordEXT block`);
  }
}

function tryPack(
  at: (path: string, message: string) => void, path: string, types: TypeTable, block: TypeId, value: unknown, file: string,
): void {
  try {
    const size = layoutSize(types, block, runtimeLength(types, block, value));
    packValue(new DataView(new ArrayBuffer(Math.max(size, 4))), 0, block, types, value, path, ANY_ADDRESS);
  } catch (e) {
    if (!(e instanceof LayoutPackError)) throw e;
    at(e.path || path, `${e.message.slice(e.path.length + 2)} (block ${structName(types, block)} in ${file})`);
  }
}

/** Length of the block's trailing runtime array in `value`, so the scratch buffer is big enough. */
function runtimeLength(types: TypeTable, block: TypeId, value: unknown): number {
  const t = typeOf(types, block);
  if (t.kind !== 'struct' || typeof value !== 'object' || value === null) return 0;
  const last = t.members[t.members.length - 1];
  if (!last || typeOf(types, last.type).kind !== 'runtimeArray') return 0;
  const v = (value as Record<string, unknown>)[last.name];
  return Array.isArray(v) ? v.length : 0;
}

/**
 * A block whose only member is a struct takes that struct's value directly: `uniform
 * _CameraMatrices { CameraMatrices cam; }` is filled from `{viewInverse, projInverse}`.
 */
export function fitToBlock(types: TypeTable, block: TypeId, value: unknown): unknown {
  const t = typeOf(types, block);
  if (t.kind !== 'struct' || t.members.length !== 1 || typeof value !== 'object' || value === null) return value;
  const only = t.members[0]!;
  const kind = typeOf(types, only.type).kind;
  // `buffer B { Obj i[]; }` takes its elements as a JSON array, as the host uploads them.
  if (Array.isArray(value)) return kind === 'runtimeArray' || kind === 'array' ? { [only.name]: value } : value;
  if (only.name in (value as object)) return value;
  return kind === 'struct' ? { [only.name]: value } : value;
}

/** Run-parameter placeholders ("${spp}", "${(frame + 1) * spp}") read as a number for the layout checks; the validator checked their syntax. */
function substitutePlaceholders(v: JsonValue): JsonValue {
  if (typeof v === 'string') return placeholderExpression(v) !== undefined && placeholderProblem(placeholderExpression(v)!) === undefined ? 1 : v;
  if (Array.isArray(v)) return v.map(substitutePlaceholders);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substitutePlaceholders(x)]));
  return v;
}

function pointee(types: TypeTable, g: Global): TypeId {
  const t = typeOf(types, g.type);
  return t.kind === 'pointer' ? t.pointee : g.type;
}

function blockName(m: Module, g: Global): string {
  return typeName(m.types, pointee(m.types, g));
}

/** The descriptor kind a bound global needs, from its storage class and type. */
function descriptorKind(types: TypeTable, g: Global): { kind: DescriptorKind; format?: string } | undefined {
  if (g.storage === 'uniform') return { kind: 'uniformBuffer' };
  if (g.storage === 'storageBuffer') return { kind: 'storageBuffer' };
  if (g.storage !== 'uniformConstant') return undefined;
  let t = typeOf(types, pointee(types, g));
  while (t.kind === 'array' || t.kind === 'runtimeArray') t = typeOf(types, t.elem);
  if (t.kind === 'accelerationStructure') return { kind: 'accelerationStructure' };
  if (t.kind === 'sampledImage' || t.kind === 'sampler') return { kind: 'sampledImages' };
  if (t.kind === 'image') return t.sampled ? { kind: 'sampledImages' } : { kind: 'storageImage', format: t.format };
  return undefined;
}

/**
 * A buffer no shader binds is laid out by its `struct`: some shader must declare that struct with
 * an explicit layout (as the element of the buffer_reference block that reads the buffer).
 */
function checkNamedStructs(manifest: WorkloadManifest, modules: Module[], bound: Set<string>, at: (path: string, message: string) => void): void {
  const entries = [
    ...manifest.descriptors.map((d, i) => ({ d, path: `descriptors[${i}]`, bound: bound.has(`${d.set}.${d.binding}`) })),
    ...(manifest.buffers ?? []).map((b) => ({ d: b.content, path: b.key, bound: false })),
  ];
  for (const e of entries) {
    if (e.d.kind === 'storageBuffer' && e.d.hostStruct && e.d.from === 'scene' && e.d.what) {
      // The host's struct is filled by member name too; constants and addresses need no field.
      const known = sceneFields(e.d.what);
      for (const mem of e.d.hostStruct) {
        const field = e.d.fields?.[mem.name] ?? mem.name;
        if (typeof field !== 'string' || field in known) continue;
        at(
          e.d.fields?.[mem.name] ? `${e.path}.fields.${mem.name}` : `${e.path}.hostStruct.${mem.name}`,
          `no scene field "${field}" in ${e.d.what} (fields: ${Object.keys(known).join(', ')}; map it with "fields", or give a constant such as "fields": {"${mem.name}": 0})`,
        );
      }
    }
    if (e.d.kind !== 'storageBuffer' || !e.d.struct || e.bound) continue;
    const name = e.d.struct;
    const layout = e.d.layout;
    const found = modules.map((m) => ({ m, s: structElementLayout(m.types, name, layout) })).find((x) => x.s);
    if (!found) {
      at(`${e.path}.struct`, `no shader declares a struct ${name} with an explicit layout (in a buffer or buffer_reference block)`);
      continue;
    }
    if (e.d.from !== 'scene' || !e.d.what) continue;
    // Scene records fill the struct by member name: each member needs a field (or an address).
    const elem = typeOf(found.m.types, found.s!.elem);
    if (elem.kind !== 'struct') continue;
    const known = sceneFields(e.d.what);
    for (const mem of elem.members) {
      const field = e.d.fields?.[mem.name] ?? mem.name;
      if (typeof field !== 'string' || field in known) continue;
      at(
        e.d.fields?.[mem.name] ? `${e.path}.fields.${mem.name}` : `${e.path}.struct`,
        `struct ${name}'s member "${mem.name}" has no scene field "${field}" in ${e.d.what} (fields: ${Object.keys(known).join(', ')}; map it with "fields")`,
      );
    }
  }
}

/** `members` overrides name existing members and fit their types (run parameters stand for numbers). */
function tryPackMembers(
  at: (path: string, message: string) => void, path: string, types: TypeTable, block: TypeId, members: JsonObject, file: string,
): void {
  const numbers = substitutePlaceholders(members) as JsonObject;
  try {
    packMembers(new DataView(new ArrayBuffer(Math.max(layoutSize(types, block), 4))), block, types, numbers, path, ANY_ADDRESS);
  } catch (e) {
    if (!(e instanceof LayoutPackError)) throw e;
    at(e.path, `${e.message.slice(e.path.length + 2)} (block ${structName(types, block)} in ${file})`);
  }
}

/** A block as its shader spells it (`CameraProperties`), not the IR's `%CameraProperties`. */
function structName(types: TypeTable, block: TypeId): string {
  const t = typeOf(types, block);
  return t.kind === 'struct' ? t.name : typeName(types, block);
}
