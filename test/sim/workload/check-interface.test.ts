// checkManifestInterfaces against modules compiled by the vvision front end: the built-in
// workloads must be clean, and each kind of manifest/shader mismatch must be reported with the
// manifest key path and the shader that disagrees.
import test from 'ava';
import { join } from 'node:path';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import type { Module } from '../../../src/ir/module.js';
import { checkManifestInterfaces, fitToBlock, moduleLookup } from '../../../src/sim/workload/check-interface.js';
import { listBuiltinWorkloads, loadManifest, resolveWorkload } from '../../../src/sim/workload/load-manifest.js';
import { SHADER_STAGES, type WorkloadManifest } from '../../../src/sim/workload/manifest.js';

const modules = new Map<string, Module | undefined>();
const APP = join(import.meta.dirname, '..', '..', '..', 'examples', 'apps', 'sascha-raytracingreflections', 'workload.json');

function modulesOf(m: WorkloadManifest): (file: string) => Module | undefined {
  for (const s of SHADER_STAGES.flatMap((stage) => m.shaders[stage])) {
    const key = `${s.file}|${JSON.stringify(s.defines)}`;
    if (!modules.has(key)) {
      const r = compileGlsl(s.file, undefined, { includeDirs: s.includeDirs, defines: s.defines, stage: s.stage });
      modules.set(key, r.module);
    }
  }
  return (file) => {
    const s = SHADER_STAGES.flatMap((stage) => m.shaders[stage]).find((x) => x.file === file);
    return s ? modules.get(`${s.file}|${JSON.stringify(s.defines)}`) : undefined;
  };
}

function builtin(name: string): WorkloadManifest {
  return structuredClone(loadManifest(resolveWorkload(name)));
}

function expectProblem(t: import('ava').ExecutionContext, problems: string[], pattern: RegExp): void {
  t.true(problems.some((p) => pattern.test(p)), `expected ${pattern} among:\n${problems.join('\n')}`);
}

test('every built-in workload agrees with its compiled shaders', (t) => {
  for (const w of listBuiltinWorkloads()) {
    const m = loadManifest(w.manifest);
    t.deepEqual(checkManifestInterfaces(m, modulesOf(m)), [], w.name);
  }
});

test('a binding a shader uses with no descriptor is reported with the shader and variable', (t) => {
  const m = builtin('tri');
  m.descriptors = m.descriptors.filter((d) => d.binding !== 1);
  expectProblem(t, checkManifestInterfaces(m, modulesOf(m)), /tri\/workload\.json: descriptors: missing: .*tri\/raygen\.rgen declares image \(set 0, binding 1, storageImage\)$/);
});

test('a descriptor of the wrong kind or image format is reported at its key', (t) => {
  const m = builtin('tri');
  const image = m.descriptors.findIndex((d) => d.binding === 1);
  m.descriptors[image] = { set: 0, binding: 1, kind: 'storageImage', format: 'rgba32f', role: 'output' };
  const tlas = m.descriptors.findIndex((d) => d.binding === 0);
  m.descriptors[tlas] = { set: 0, binding: 0, kind: 'storageBuffer', layout: 'std430', elements: 4 };
  const problems = checkManifestInterfaces(m, modulesOf(m));
  expectProblem(t, problems, new RegExp(`descriptors\\[${image}\\]\\.format: "rgba32f" but .*raygen\\.rgen declares image with layout\\(rgba8\\)`));
  expectProblem(t, problems, new RegExp(`descriptors\\[${tlas}\\]\\.kind: "storageBuffer" but .*declares topLevelAS \\(set 0, binding 0\\) as accelerationStructure`));
});

test('a uniform value that does not match the block layout names the JSON path and the block', (t) => {
  const m = builtin('rtv6');
  const i = m.descriptors.findIndex((d) => d.binding === 10);
  const d = m.descriptors[i]!;
  if (d.kind !== 'uniformBuffer' || !d.value) return t.fail('rtv6 binding 10 is a uniform value');
  d.value = { ...d.value, lightDirection: [0, 1, 0] };
  const problems = checkManifestInterfaces(m, modulesOf(m));
  expectProblem(t, problems, new RegExp(`descriptors\\[${i}\\]\\.value\\.lightDirection: expected an array of 4 for vec4<f32>, found an array of 3 \\(block SceneSettings in [^;]*\\)$`));
});

test('a member no declaration of a binding has: each different declaration says so (raygen and closest-hit declare binding 2 differently)', (t) => {
  const m = loadManifest(APP);
  const i = m.descriptors.findIndex((d) => d.binding === 2);
  const d = m.descriptors[i]!;
  if (d.kind !== 'uniformBuffer') return t.fail('binding 2 is a uniform buffer');
  d.members = { ...d.members, vertexSiz: 96 };
  const problems = checkManifestInterfaces(m, modulesOf(m));
  t.is(problems.length, 1, problems.join('\n'));
  t.regex(problems[0]!, /descriptors\[2\]\.members\.vertexSiz: no member 'vertexSiz' in CameraProperties \(members: viewInverse, projInverse, lightPos\) \(block CameraProperties in .*raygen\.rgen\); no member 'vertexSiz' in UBO \(members: viewInverse, projInverse, lightPos, vertexSize\) \(block UBO in .*closesthit\.rchit\)$/);
});

test('push constant mistakes: an unknown member, and a block with no pushConstants', (t) => {
  const m = builtin('ref');
  m.pushConstants = { ...m.pushConstants!, lightDir: [0, 1, 0, 0] };
  expectProblem(t, checkManifestInterfaces(m, modulesOf(m)), /pushConstants\.lightDir: struct RefLighting has no member "lightDir"/);
  delete m.pushConstants;
  expectProblem(t, checkManifestInterfaces(m, modulesOf(m)), /pushConstants: missing: .*declares push_constant block %RefLighting/);
});

test('shader records: missing for a shader that reads one, mistyped, or given where none is read', (t) => {
  const m = builtin('rtv6');
  delete m.hitGroups[0]!.shaderRecord;
  m.hitGroups[2]!.shaderRecord = { albedo: [1, 1, 0, 1], edgeColor: 'dark' };
  m.hitGroups[1]!.shaderRecord = { albedo: [1, 1, 1, 1] };
  const problems = checkManifestInterfaces(m, modulesOf(m));
  expectProblem(t, problems, /hitGroups\[0\]\.shaderRecord: missing: .*sphere\.rchit reads shaderRecordEXT block %SphereRecord/);
  expectProblem(t, problems, /hitGroups\[2\]\.shaderRecord\.edgeColor: expected an array of 4 for vec4<f32>, found "dark"/);
  expectProblem(t, problems, /hitGroups\[1\]\.shaderRecord: no shader of this SBT entry declares a shaderRecordEXT block/);
});

test('scene buffers must provide every member of the element struct (or map it with fields)', (t) => {
  const m = builtin('pt');
  const i = m.descriptors.findIndex((d) => d.kind === 'storageBuffer' && d.what === 'spheres');
  const d = m.descriptors[i]!;
  if (d.kind !== 'storageBuffer') return t.fail();
  d.what = 'aabbs';
  expectProblem(t, checkManifestInterfaces(m, modulesOf(m)), new RegExp(`descriptors\\[${i}\\]\\.what: .*Sphere member "center" has no scene field "center" in aabbs`));
  d.what = 'spheres';
  d.fields = { radius: 'size' };
  expectProblem(t, checkManifestInterfaces(m, modulesOf(m)), new RegExp(`descriptors\\[${i}\\]\\.fields\\.radius: .*member "radius" has no scene field "size" in spheres`));
});

test('spec constants, push constants and descriptors no shader declares are reported', (t) => {
  const m = builtin('tri');
  m.specConstants = { 7: 1 };
  m.pushConstants = { frame: 0 };
  m.descriptors.push({ set: 1, binding: 3, kind: 'accelerationStructure' });
  const problems = checkManifestInterfaces(m, modulesOf(m));
  expectProblem(t, problems, /specConstants\.7: no shader declares layout\(constant_id = 7\)/);
  expectProblem(t, problems, /pushConstants: no shader declares a push_constant block/);
  expectProblem(t, problems, /descriptors\[3\]: no shader declares set 1, binding 3/);
});

test('moduleLookup maps SBT-ordered modules back to the manifest files they came from', (t) => {
  const m = builtin('rtv6');
  const of = modulesOf(m);
  const at = (file: string | undefined) => (file ? of(file) : undefined);
  const stages = {
    raygen: of(m.raygen)!,
    miss: m.miss.map((e) => of(e.shader)!),
    hitGroups: m.hitGroups.map((g) => {
      const out: { closestHit?: Module; anyHit?: Module; intersection?: Module } = {};
      for (const role of ['closestHit', 'anyHit', 'intersection'] as const) {
        const mod = at(g[role]);
        if (mod) out[role] = mod;
      }
      return out;
    }),
    callables: m.callables.map((e) => of(e.shader)!),
  };
  const lookup = moduleLookup(m, stages);
  t.is(lookup(m.hitGroups[2]!.intersection!), of(m.hitGroups[2]!.intersection!));
  t.is(lookup(m.miss[1]!.shader), of(m.miss[1]!.shader));
  t.is(lookup('/nowhere.rgen'), undefined);
  t.deepEqual(checkManifestInterfaces(m, lookup), []);
});

test('fitToBlock: a block whose only member is an array takes a JSON array of its elements; a struct member its value', (t) => {
  const r = compileGlsl('fit.rchit', `#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
struct ObjBuffers { uint64_t vertices; uint64_t indices; };
struct Cam { mat4 viewInverse; };
layout(set = 0, binding = 3) buffer _scene_desc { ObjBuffers i[]; } scene_desc;
layout(set = 0, binding = 4) uniform U { Cam cam; };
hitAttributeEXT vec2 a;
void main() { uint64_t x = scene_desc.i[0].vertices; }
`, { stage: 'closestHit' });
  const m = r.module!;
  const block = (binding: number) => {
    const g = m.globals.find((x) => x.binding === binding)!;
    const pt = m.types.types[g.type]!;
    return pt.kind === 'pointer' ? pt.pointee : g.type;
  };
  const rows = [{ vertices: 1, indices: 2 }];
  t.deepEqual(fitToBlock(m.types, block(3), rows), { i: rows });
  t.deepEqual(fitToBlock(m.types, block(3), { i: rows }), { i: rows });
  t.deepEqual(fitToBlock(m.types, block(4), { viewInverse: 1 }), { cam: { viewInverse: 1 } });
  t.deepEqual(fitToBlock(m.types, block(4), [1, 2]), [1, 2]);
});
