// Vulkan-Sim gives each ray tracing variable of each thread its own 256-byte-aligned allocation;
// the private layout starts every such variable on a 256-byte block (rt-state-storage.ts).
import test from 'ava';
import { RT_STATE_ALLOC_BYTES, vulkanSimBlocks } from '../../../src/sim/functional/rt-state-storage.js';
import { compileGlslProgram } from './run-ir.js';
import { prepareRun } from '../../../src/driver/run-workload.js';

const RGEN = `#version 460
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadEXT vec3 color;
layout(location = 1) rayPayloadEXT float shadow;
layout(location = 0) callableDataEXT vec4 call;
vec2 jitter;
layout(binding = 0, set = 0) uniform accelerationStructureEXT tlas;
void main() {
  jitter = vec2(gl_LaunchIDEXT.xy);
  traceRayEXT(tlas, 0, 0xff, 0, 0, 0, vec3(jitter, 0), 0.0, vec3(0, 0, 1), 1.0, 0);
  traceRayEXT(tlas, 0, 0xff, 0, 0, 1, vec3(jitter, 1), 0.0, vec3(0, 0, 1), 1.0, 1);
  executeCallableEXT(0, 0);
}`;

test('each payload and callable-data variable starts its own 256-byte block; other privates pack', (t) => {
  const p = compileGlslProgram(RGEN, 'layout.rgen', 'raygen');
  const st = p.statics;
  const offsets = p.module.globals.flatMap((g, i) => (st.privateOffset.has(i) ? [{ storage: g.storage, off: st.privateOffset.get(i)! }] : []));
  const rt = offsets.filter((o) => ['rayPayload', 'callableData'].includes(o.storage));
  t.is(rt.length, 3);
  for (const o of rt) t.is(o.off % RT_STATE_ALLOC_BYTES, 0, `${o.storage} at ${o.off}`);
  t.is(new Set(rt.map((o) => Math.floor(o.off / RT_STATE_ALLOC_BYTES))).size, 3, 'three distinct blocks');
});

test('a variable with the name and size of an earlier one is Vulkan-Sim\'s same allocation (its per-thread table is keyed by name)', (t) => {
  const b = RT_STATE_ALLOC_BYTES;
  const blocks = vulkanSimBlocks([
    { name: 'Ray', offset: b, bytes: 48 }, // raygen's rayPayloadEXT
    { name: 'Ray', offset: 2 * b, bytes: 48 }, // a hit shader's rayPayloadInEXT
    { name: 'Ray', offset: 3 * b, bytes: 64 }, // same name, another size: apart
    { name: '', offset: 4 * b, bytes: 48 }, // unnamed: apart
    { name: 'big', offset: 5 * b, bytes: 2 * b }, // two blocks
    { name: 'big', offset: 7 * b, bytes: 2 * b },
  ], 9 * b);
  t.deepEqual([...blocks], [0, 1, 1, 3, 4, 5, 6, 5, 6]);
});

test('pt: the raygen payload and the hit and miss shaders\' incoming payloads, all named payload, are one Vulkan-Sim allocation; private memory keeps them apart', async (t) => {
  const p = await prepareRun('pt', { width: 8, height: 8 });
  const st = p.program.statics;
  const payloads = p.program.module.globals.flatMap((g, i) => (g.name === 'payload' && st.privateOffset.has(i) ? [st.privateOffset.get(i)!] : []));
  t.true(payloads.length >= 3, `${payloads.length} payload variables (raygen, closest hit, miss)`);
  t.is(new Set(payloads).size, payloads.length, 'each its own private memory');
  t.is(new Set(payloads.map((o) => st.rtStateBlocks[Math.floor(o / RT_STATE_ALLOC_BYTES)])).size, 1, 'one block in the timing model');
});
