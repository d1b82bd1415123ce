// One test per kind of manifest mistake: each must be reported with the manifest's name and the
// key path, several problems at once, and as a ManifestError rather than a stack trace.
import test from 'ava';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadManifest } from '../../../src/sim/workload/load-manifest.js';
import { ManifestError } from '../../../src/sim/workload/manifest.js';

const dir = mkdtempSync(join(tmpdir(), 'vv-manifest-'));
mkdirSync(join(dir, 'inc'));
for (const f of ['raygen.rgen', 'other.rgen', 'hit.rchit', 'alpha.rahit', 'sphere.rint', 'miss.rmiss', 'light.rcall', 'tex.png', 'data.bin', 'scene.obj']) {
  writeFileSync(join(dir, f), '');
}

/** A valid manifest; each test breaks one thing. */
function base(): Record<string, unknown> {
  return {
    name: 'demo',
    description: 'test workload',
    includeDirs: ['inc'],
    defines: { MAX_DEPTH: 3, USE_AO: true },
    shaders: {
      raygen: ['raygen.rgen'], closestHit: ['hit.rchit'], anyHit: ['alpha.rahit'], intersection: ['sphere.rint'],
      miss: ['miss.rmiss'], callable: [{ file: 'light.rcall', defines: { LIGHT: 'point' } }],
    },
    hitGroups: [
      { type: 'triangles', closestHit: 'hit.rchit', anyHit: 'alpha.rahit' },
      { type: 'procedural', closestHit: 'hit.rchit', intersection: 'sphere.rint', shaderRecord: { color: [1, 0, 0, 1] } },
    ],
    miss: ['miss.rmiss'],
    callables: [{ shader: 'light.rcall', shaderRecord: { kind: 1 } }],
    maxRecursionDepth: 2,
    descriptors: [
      { set: 0, binding: 0, kind: 'accelerationStructure' },
      { set: 0, binding: 1, kind: 'storageImage', format: 'rgba8', role: 'output' },
      { set: 0, binding: 2, kind: 'uniformBuffer', layout: 'std140', camera: { lookFrom: [0, 0, 3], lookAt: [0, 0, 0], fovY: 45 } },
      { set: 0, binding: 3, kind: 'storageBuffer', layout: 'scalar', from: 'scene', what: 'vertices' },
      { set: 0, binding: 4, kind: 'storageBuffer', data: 'data.bin' },
      { set: 0, binding: 5, kind: 'sampledImages', files: ['tex.png'] },
      { set: 1, binding: 0, kind: 'uniformBuffer', value: { exposure: 1.5 } },
    ],
    pushConstants: { frame: 0, spp: '${spp}' },
    specConstants: { '0': 8, '1': true },
    scene: { obj: 'scene.obj', instances: [{ mesh: 0, transform: [[1, 0, 0, 0], [0, 1, 0, 2], [0, 0, 1, 0]], customIndex: 3, mask: 1, sbtOffset: 1 }] },
    launch: { width: 64, height: 32 },
    spp: 2,
    bounces: 3,
    seed: 7,
  };
}

function write(name: string, json: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, typeof json === 'string' ? json : JSON.stringify(json, null, 2));
  return p;
}

function problemsOf(json: unknown, name = 'bad.json'): string[] {
  const p = write(name, json);
  try {
    loadManifest(p);
  } catch (e) {
    if (e instanceof ManifestError) return e.problems;
    throw e;
  }
  return [];
}

function hasProblem(t: import('ava').ExecutionContext, problems: string[], pattern: RegExp): void {
  t.true(problems.some((p) => pattern.test(p)), `expected ${pattern} among:\n${problems.join('\n')}`);
}

test('a valid manifest loads with absolute paths, merged defines and defaults filled', (t) => {
  const m = loadManifest(write('good.json', base()));
  t.is(m.name, 'demo');
  t.is(m.raygen, join(dir, 'raygen.rgen'));
  t.deepEqual(m.shaders.callable[0]!.defines, { MAX_DEPTH: '3', USE_AO: '1', LIGHT: 'point' });
  t.deepEqual(m.shaders.miss[0]!.includeDirs, [join(dir, 'inc')]);
  t.is(m.hitGroups[1]!.intersection, join(dir, 'sphere.rint'));
  t.deepEqual(m.hitGroups[1]!.shaderRecord, { color: [1, 0, 0, 1] });
  t.deepEqual(m.launch, { width: 64, height: 32, depth: 1 });
  t.deepEqual(m.specConstants, { 0: 8, 1: true });
  t.deepEqual(m.scene!.instances[0]!.transform, [1, 0, 0, 0, 0, 1, 0, 2, 0, 0, 1, 0]);
  t.is(m.scene!.source!.kind, 'obj');
  const ubo = m.descriptors[2]!;
  t.true(ubo.kind === 'uniformBuffer' && ubo.camera !== undefined && ubo.camera.near === 0.1 && ubo.camera.up[1] === 1);
  const tex = m.descriptors[5]!;
  t.true(tex.kind === 'sampledImages' && tex.filter === 'linear' && tex.files[0] === join(dir, 'tex.png'));
  t.is(m.maxRecursionDepth, 2);
});

test('a wrong value type names the key path, the file and what was found', (t) => {
  const m = base();
  (m.descriptors as Record<string, unknown>[])[2]!.binding = 'x';
  const problems = problemsOf(m, 'pt.json');
  t.deepEqual(problems, [`${join(dir, 'pt.json')}: descriptors[2].binding: expected a non-negative integer, found "x"`]);
});

test('a missing shader file is reported under its stage list', (t) => {
  const m = base();
  (m.shaders as Record<string, unknown>).closestHit = ['missing.rchit'];
  hasProblem(t, problemsOf(m), /: shaders\.closestHit\[0\]: file not found: .*missing\.rchit$/);
});

test('a shader under the wrong stage extension is reported', (t) => {
  const m = base();
  (m.shaders as Record<string, unknown>).miss = ['hit.rchit'];
  hasProblem(t, problemsOf(m), /shaders\.miss\[0\]: a miss shader needs the \.rmiss extension, found "hit\.rchit"/);
});

test('a procedural hit group without an intersection shader is reported', (t) => {
  const m = base();
  delete (m.hitGroups as Record<string, unknown>[])[1]!.intersection;
  hasProblem(t, problemsOf(m), /: hitGroups\[1\]\.intersection: procedural hit group needs an intersection shader$/);
});

test('a triangle hit group with an intersection shader is reported', (t) => {
  const m = base();
  (m.hitGroups as Record<string, unknown>[])[0]!.intersection = 'sphere.rint';
  hasProblem(t, problemsOf(m), /hitGroups\[0\]\.intersection: a triangles hit group cannot have an intersection shader/);
});

test('an SBT entry naming a shader not listed (or listed under another stage) is reported', (t) => {
  const m = base();
  (m.hitGroups as Record<string, unknown>[])[0]!.closestHit = 'miss.rmiss';
  (m as Record<string, unknown>).callables = ['nothere.rcall'];
  const problems = problemsOf(m);
  hasProblem(t, problems, /hitGroups\[0\]\.closestHit: "miss\.rmiss" is listed under shaders\.miss, but this role needs a closestHit shader/);
  hasProblem(t, problems, /callables\[0\]: "nothere\.rcall" is not listed in shaders\.callable/);
});

test('two descriptors for the same set and binding are reported', (t) => {
  const m = base();
  (m.descriptors as unknown[]).push({ set: 0, binding: 1, kind: 'accelerationStructure' });
  hasProblem(t, problemsOf(m), /descriptors\[7\]: set 0 binding 1 is already described by descriptors\[1\]/);
});

test('an unknown descriptor kind, image format and scene buffer kind list the allowed values', (t) => {
  const m = base();
  const d = m.descriptors as Record<string, unknown>[];
  d[0]!.kind = 'tlas';
  d[1]!.format = 'rgb8';
  d[3]!.what = 'normals';
  const problems = problemsOf(m);
  hasProblem(t, problems, /descriptors\[0\]\.kind: expected one of "accelerationStructure", .*found "tlas"/);
  hasProblem(t, problems, /descriptors\[1\]\.format: expected one of "rgba8", .*found "rgb8"/);
  hasProblem(t, problems, /descriptors\[3\]\.what: expected one of "vertices", .*found "normals"/);
});

test('a uniform buffer with both or neither of value and camera is reported', (t) => {
  const m = base();
  const d = m.descriptors as Record<string, unknown>[];
  d[6]!.camera = { lookFrom: [0, 0, 1], lookAt: [0, 0, 0], fovY: 30 };
  hasProblem(t, problemsOf(m), /descriptors\[6\]: a uniform buffer needs exactly one of "value" .*, "camera" and "data"/);
});

test('camera mistakes name the camera key', (t) => {
  const m = base();
  const d = m.descriptors as Record<string, unknown>[];
  d[2]!.camera = { lookFrom: [0, 0, 1], lookAt: [0, 0], fovY: 190 };
  const problems = problemsOf(m);
  hasProblem(t, problems, /descriptors\[2\]\.camera\.lookAt: expected an array of 3 numbers, found an array of 2/);
  hasProblem(t, problems, /descriptors\[2\]\.camera\.fovY: expected degrees between 0 and 180, found 190/);
});

test('a storage buffer source must be exactly one of from/data/value/elements', (t) => {
  const m = base();
  const d = m.descriptors as Record<string, unknown>[];
  d[3]!.data = 'data.bin';
  d[4] = { set: 0, binding: 4, kind: 'storageBuffer' };
  const problems = problemsOf(m);
  hasProblem(t, problems, /descriptors\[3\]: a storage buffer takes only one of "from", "data"/);
  hasProblem(t, problems, /descriptors\[4\]: a storage buffer needs one of "from": "scene"/);
});

test('a sampled image that is missing or not a PNG / JPEG / KTX2 is reported per file', (t) => {
  const m = base();
  (m.descriptors as Record<string, unknown>[])[5]!.files = ['tex.png', 'nope.png', 'data.bin'];
  const problems = problemsOf(m);
  hasProblem(t, problems, /descriptors\[5\]\.files\[1\]: file not found: .*nope\.png/);
  hasProblem(t, problems, /descriptors\[5\]\.files\[2\]: expected a \.png, \.jpg \/ \.jpeg or \.ktx2 file, or \{"file": "x\.rgba8", "width": w, "height": h\}, found "data\.bin"/);
});

test('scene mistakes: two sources, unknown generator, bad instance fields', (t) => {
  const twoSources = base();
  twoSources.scene = { obj: 'scene.obj', procedural: 'wknd' };
  hasProblem(t, problemsOf(twoSources), /: scene: takes only one of "obj", "procedural"/);
  const m = base();
  m.scene = { procedural: 'sponza', seed: -1, instances: [{ transform: [1, 2, 3], mask: 300, customIndex: 2 ** 25, flags: ['opaque'] }] };
  const problems = problemsOf(m);
  hasProblem(t, problems, /scene\.procedural: expected one of "wknd", "cornell", "rtv6", "tri", found "sponza"/);
  hasProblem(t, problems, /scene\.seed: expected a non-negative integer, found -1/);
  hasProblem(t, problems, /scene\.instances\[0\]\.transform: expected a 3x4 row-major matrix/);
  hasProblem(t, problems, /scene\.instances\[0\]\.mask: expected an 8-bit mask \(0\.\.255\), found 300/);
  hasProblem(t, problems, /scene\.instances\[0\]\.customIndex: expected a 24-bit value/);
  hasProblem(t, problems, /scene\.instances\[0\]\.flags\[0\]: expected one of "triangleFacingCullDisable"/);
});

test('spec constant ids, defines and launch sizes are checked', (t) => {
  const m = base();
  m.specConstants = { ao: 8, '2': 'many' };
  m.defines = { 'BAD NAME': 1, OK: [1] };
  m.launch = { width: 0, height: 16, depth: 'x' };
  const problems = problemsOf(m);
  hasProblem(t, problems, /specConstants\.ao: expected a constant_id/);
  hasProblem(t, problems, /specConstants\.2: expected a number or boolean, found "many"/);
  hasProblem(t, problems, /defines\.BAD NAME: expected a preprocessor identifier as the name, found "BAD NAME"/);
  hasProblem(t, problems, /defines\.OK: expected a string, number or boolean, found an array of 1/);
  hasProblem(t, problems, /launch\.width: expected a positive integer, found 0/);
  hasProblem(t, problems, /launch\.depth: expected a positive integer, found "x"/);
});

test('required keys that are missing are each reported, all in one error', (t) => {
  const problems = problemsOf({ description: 'nothing else' });
  for (const k of ['name', 'shaders', 'miss', 'scene', 'launch']) hasProblem(t, problems, new RegExp(`: ${k}: missing`));
  t.true(problems.length >= 5);
});

test('misspelt keys are reported instead of silently ignored', (t) => {
  const m = base();
  m.maxRecursion = 2;
  (m.hitGroups as Record<string, unknown>[])[0]!.closesthit = 'hit.rchit';
  const problems = problemsOf(m);
  hasProblem(t, problems, /: maxRecursion: unknown key/);
  hasProblem(t, problems, /hitGroups\[0\]\.closesthit: unknown key \(expected one of type, closestHit/);
});

test('several raygen shaders need the launched one named', (t) => {
  const m = base();
  (m.shaders as Record<string, unknown>).raygen = ['raygen.rgen', 'other.rgen'];
  hasProblem(t, problemsOf(m), /: raygen: missing: 2 raygen shaders are listed, name the one to launch/);
  m.raygen = 'other.rgen';
  t.deepEqual(problemsOf(m), []);
});

test('run-parameter placeholders: unknown names, and placeholders outside pushConstants', (t) => {
  const m = base();
  m.pushConstants = { frame: '${frame}', spp: '${spp}', bad: '${fram * 2}', broken: '${(spp + 1}' };
  (m.descriptors as Record<string, unknown>[])[6]!.value = { exposure: '${seed}' };
  (m.descriptors as Record<string, unknown>[])[4] = { set: 0, binding: 4, kind: 'storageBuffer', value: { count: '${spp}' } };
  const problems = problemsOf(m);
  hasProblem(t, problems, /pushConstants\.bad: \$\{fram \* 2\}: unknown name 'fram' \(a run parameter such as \$\{spp\}, or arithmetic over width, height/);
  hasProblem(t, problems, /pushConstants\.broken: \$\{\(spp \+ 1\}: missing \)/);
  hasProblem(t, problems, /descriptors\[4\]\.value\.count: run parameter \$\{spp\} is only substituted in pushConstants, perFramePushConstants and in uniform buffers/);
  t.false(problems.some((p) => p.includes('pushConstants.frame')), '${frame} is a run parameter (multi-frame runs)');
  t.false(problems.some((p) => p.includes('descriptors[6]')), 'uniform buffer values take run parameters');
  t.false(problems.some((p) => p.includes('pushConstants.spp')));
});

test('a file that is not JSON or does not exist is a ManifestError with the file name', (t) => {
  const p = write('broken.json', '{ "name": "x", ');
  const e1 = t.throws(() => loadManifest(p), { instanceOf: ManifestError });
  t.regex(e1!.message, /broken\.json: not valid JSON/);
  const e2 = t.throws(() => loadManifest(join(dir, 'absent.json')), { instanceOf: ManifestError });
  t.regex(e2!.problems[0]!, /absent\.json: manifest file not found/);
  const e3 = t.throws(() => loadManifest(write('array.json', [])), { instanceOf: ManifestError });
  t.regex(e3!.problems[0]!, /array\.json: expected an object, found an array of 0/);
});

test('scene.models: each model needs one file; a buffer model index must exist; models and obj exclude each other', (t) => {
  const m = base();
  m.scene = { models: [{ obj: 'scene.obj', transform: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]] }, { name: 'x' }] };
  m.buffers = [{ name: 'v2', from: 'scene', what: 'vertices', model: 2, struct: 'V' }];
  hasProblem(t, problemsOf(m), /scene\.models\[1\]: needs one of "obj" or "gltf"/);
  m.scene = { models: [{ obj: 'scene.obj' }, { name: 'x', obj: 'scene.obj' }] };
  hasProblem(t, problemsOf(m), /buffers\[0\]\.model: 2 is out of range \(the scene has 2 models\)/);
  const both = base();
  both.scene = { obj: 'scene.obj', models: [{ obj: 'scene.obj' }] };
  hasProblem(t, problemsOf(both), /scene: takes only one of "obj", "models"/);
  const good = base();
  good.scene = { models: [{ obj: 'scene.obj', customIndex: 4 }, { name: 'second', obj: 'scene.obj', sbtOffset: 1 }] };
  const loaded = loadManifest(write('models.json', good));
  t.deepEqual(loaded.scene!.models!.map((x) => [x.name, x.customIndex, x.sbtOffset]), [['scene', 4, 0], ['second', undefined, 1]]);
});

test('buffers: a name is required, "model" only with scene data, "struct" and "element" exclude each other', (t) => {
  const m = base();
  m.buffers = [
    { value: [1] },
    { name: 'b', element: 'uint', value: [1], model: 0 },
    { name: 'c', struct: 'S', element: 'uint', value: [1] },
    { name: 'd', element: 'quaternion', value: [1] },
  ];
  const problems = problemsOf(m);
  hasProblem(t, problems, /buffers\[0\]\.name: missing/);
  hasProblem(t, problems, /buffers\[1\]\.model: only meaningful with "from": "scene"/);
  hasProblem(t, problems, /buffers\[2\]\.element: give one of "struct", "element" and "hostStruct", found "struct" and "element"/);
  hasProblem(t, problems, /buffers\[3\]\.element: expected one of .*uvec3/);
});

test('camera.members names known quantities only', (t) => {
  const m = base();
  (m.descriptors as Record<string, unknown>[])[2]!.camera = { lookFrom: [0, 0, 3], lookAt: [0, 0, 0], fovY: 45, members: { viewProjection: 'vp' } };
  hasProblem(t, problemsOf(m), /descriptors\[2\]\.camera\.members\.viewProjection: expected one of .*viewProj/);
});

test('a launch past 2^30 invocations (maxRayDispatchInvocationCount) is refused at the launch key', (t) => {
  const m = base();
  m.launch = { width: 1000000, height: 1000000 };
  t.deepEqual(problemsOf(m, 'huge-launch.json'), [
    `${join(dir, 'huge-launch.json')}: launch: 1000000x1000000x1 is 1000000000000 invocations, over 1073741824 (2^30, Vulkan's maxRayDispatchInvocationCount)`,
  ]);
  m.launch = { width: 32768, height: 32768 };
  t.deepEqual(problemsOf(m, 'max-launch.json'), []);
});

test('a storage image format may be the host\'s VkFormat name: it loads as the GLSL layout name', (t) => {
  for (const [vk, glsl] of [['B8G8R8A8_UNORM', 'rgba8'], ['R8G8B8A8_UNORM', 'rgba8'], ['R32G32B32A32_SFLOAT', 'rgba32f']] as const) {
    const json = base();
    const descriptors = (json.descriptors as Record<string, unknown>[]).map((d) => (d.kind === 'storageImage' ? { ...d, format: vk } : d));
    const m = loadManifest(write(`fmt-${vk}.json`, { ...json, descriptors }));
    const image = m.descriptors.find((d) => d.kind === 'storageImage');
    t.is(image?.kind === 'storageImage' ? image.format : undefined, glsl, vk);
  }
  const json = base();
  const descriptors = (json.descriptors as Record<string, unknown>[]).map((d) => (d.kind === 'storageImage' ? { ...d, format: 'B8G8R8A8_SRGB' } : d));
  hasProblem(t, problemsOf({ ...json, descriptors }), /descriptors\[\d\]\.format: expected one of "rgba8", .*"B8G8R8A8_UNORM"/);
});
