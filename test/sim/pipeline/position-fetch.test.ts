// GL_EXT_ray_tracing_position_fetch (SaschaWillems raytracingpositionfetch): gl_HitTriangleVertexPositionsEXT
// in a closest-hit shader reads the hit triangle's object-space vertices as the BLAS stores them
// (after the geometry's build-time transform); the writer emits the SPIR-V built-in, capability
// and extension spirv-val accepts; the front end asks for the extension and refuses other stages.
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWorkload } from '../../../src/driver/run-workload.js';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import { spirvBytes, writeSpirv } from '../../../src/backend/spirv/write-spirv.js';
import { readTexel } from '../../../src/sim/functional/images.js';
import { readSpirv } from '../../../src/frontend/spirv/read-module.js';
import { hasSpirvTools, spirvVal } from '../../backend/spirv/spirv-tools.js';

const RCHIT = `#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_ray_tracing_position_fetch : require
layout(location = 0) rayPayloadInEXT vec4 hitValue;
void main() {
  // One vertex per pixel column: column c shows vertex c of the triangle that was hit.
  vec3 p = gl_HitTriangleVertexPositionsEXT[0];
  if (gl_LaunchIDEXT.x == 1) p = gl_HitTriangleVertexPositionsEXT[1];
  if (gl_LaunchIDEXT.x == 2) p = gl_HitTriangleVertexPositionsEXT[2];
  hitValue = vec4(p, 1.0);
}
`;
const RGEN = `#version 460
#extension GL_EXT_ray_tracing : require
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(set = 0, binding = 1, rgba32f) uniform image2D image;
layout(location = 0) rayPayloadEXT vec4 hitValue;
void main() {
  hitValue = vec4(-1.0);
  traceRayEXT(tlas, gl_RayFlagsOpaqueEXT, 0xFF, 0, 0, 0, vec3(0.25, 0.25, 1.0), 0.0, vec3(0.0, 0.0, -1.0), 10.0, 0);
  imageStore(image, ivec2(gl_LaunchIDEXT.xy), hitValue);
}
`;
const RMISS = `#version 460
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadInEXT vec4 hitValue;
void main() { hitValue = vec4(-2.0); }
`;

function manifest(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vv-posfetch-'));
  writeFileSync(join(dir, 'hit.rchit'), RCHIT);
  writeFileSync(join(dir, 'main.rgen'), RGEN);
  writeFileSync(join(dir, 'miss.rmiss'), RMISS);
  writeFileSync(join(dir, 'workload.json'), JSON.stringify({
    name: 'position-fetch',
    shaders: { raygen: ['main.rgen'], closestHit: ['hit.rchit'], miss: ['miss.rmiss'] },
    hitGroups: [{ closestHit: 'hit.rchit' }],
    miss: ['miss.rmiss'],
    descriptors: [
      { set: 0, binding: 0, kind: 'accelerationStructure' },
      { set: 0, binding: 1, kind: 'storageImage', format: 'rgba32f', role: 'output' },
    ],
    accelerationStructures: {
      // The triangle's vertices are moved by the geometry transform (x + 1) when the BLAS is built,
      // and the instance moves it back (x - 1): the ray hits it, the shader sees the stored vertices.
      blas: [{ geometries: [{ type: 'triangles', vertexData: [0, 0, 0, 1, 0, 0, 0, 1, 0], vertexStride: 12, indexType: 'none', transform: [1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0], opaque: true }] }],
      instances: [{ blas: 0, transform: [[1, 0, 0, -1], [0, 1, 0, 0], [0, 0, 1, 0]] }],
    },
    launch: { width: 3, height: 1 },
  }));
  return join(dir, 'workload.json');
}

test('gl_HitTriangleVertexPositionsEXT: the object-space vertices as the BLAS stores them, per index', async (t) => {
  const r = await runWorkload(manifest(), {});
  const px = new Float64Array(4);
  const at = (x: number) => {
    readTexel(r.image!, 0, x, 0, 0, 0, px);
    return [px[0]!, px[1]!, px[2]!];
  };
  t.deepEqual(at(0), [1, 0, 0]);
  t.deepEqual(at(1), [2, 0, 0]);
  t.deepEqual(at(2), [1, 1, 0]);
});

test('the front end asks for GL_EXT_ray_tracing_position_fetch and refuses intersection shaders', (t) => {
  const without = compileGlsl('x.rchit', RCHIT.replace('#extension GL_EXT_ray_tracing_position_fetch : require\n', ''));
  t.is(without.module, undefined);
  t.regex(without.diagnostics[0]!.message, /'gl_HitTriangleVertexPositionsEXT' requires #extension GL_EXT_ray_tracing_position_fetch/);
  const rint = compileGlsl('x.rint', '#version 460\n#extension GL_EXT_ray_tracing : require\n#extension GL_EXT_ray_tracing_position_fetch : require\nvoid main() { vec3 p = gl_HitTriangleVertexPositionsEXT[0]; }\n');
  t.is(rint.module, undefined);
  t.regex(rint.diagnostics[0]!.message, /not available in intersection shaders/);
});

test('SPIR-V: BuiltIn HitTriangleVertexPositionsKHR with its capability and extension; read back as the same built-in', (t) => {
  const m = compileGlsl('x.rchit', RCHIT).module!;
  const words = writeSpirv(m);
  const bytes = spirvBytes(words);
  const ops: number[][] = [];
  for (let i = 5; i < words.length;) {
    const n = words[i]! >>> 16;
    ops.push([...words.subarray(i, i + n)]);
    i += n;
  }
  t.true(ops.some((o) => (o[0]! & 0xffff) === 17 && o[1] === 5336), 'OpCapability RayTracingPositionFetchKHR');
  t.true(ops.some((o) => (o[0]! & 0xffff) === 71 && o[2] === 11 && o[3] === 5335), 'OpDecorate BuiltIn HitTriangleVertexPositionsKHR');
  t.true(Buffer.from(bytes).includes(Buffer.from('SPV_KHR_ray_tracing_position_fetch')));
  const back = readSpirv('x.rchit.spv', bytes);
  t.truthy(back.globals.find((g) => g.builtin === 'HitTriangleVertexPositions'));
  if (!hasSpirvTools) return;
  // SPIRV-Tools older than 2023.2 do not know the capability: nothing to validate against then.
  const val = spirvVal(bytes, false);
  if (/Invalid capability operand: 5336/.test(val)) t.log(`spirv-val here predates SPV_KHR_ray_tracing_position_fetch: ${val}`);
  else t.is(val, '');
});
