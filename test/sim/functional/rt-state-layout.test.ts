// Vulkan-Sim gives each ray tracing variable of each thread its own 256-byte-aligned allocation;
// the private layout starts every such variable on a 256-byte block (rt-state-storage.ts).
import test from 'ava';
import { RT_STATE_ALLOC_BYTES } from '../../../src/sim/functional/rt-state-storage.js';
import { compileGlslProgram } from './run-ir.js';

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
