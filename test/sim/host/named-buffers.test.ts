// Named buffers (manifest `buffers`, descriptor `id`) and `{"addressOf": name}` values, end to
// end: a raygen shader follows a device address stored in a bound buffer to a buffer no
// descriptor binds, laid out by a struct of the shader, and writes what it finds to the image.
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWorkload } from '../../../src/driver/run-workload.js';
import { readTexel } from '../../../src/sim/functional/images.js';
import { loadManifest } from '../../../src/sim/workload/load-manifest.js';
import { ManifestError } from '../../../src/sim/workload/manifest.js';

const RGEN = `#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
struct Tint { vec3 color; float scale; uint pad; };
layout(buffer_reference, scalar, buffer_reference_align = 4) readonly buffer Tints { Tint t[]; };
layout(buffer_reference, scalar, buffer_reference_align = 4) readonly buffer Words { uint w[]; };
struct Desc { uint64_t tintAddress; uint64_t wordAddress; uint index; };
layout(set = 0, binding = 1, scalar) readonly buffer Descs { Desc d[]; } descs;
layout(set = 0, binding = 0, rgba8) uniform image2D img;
void main() {
  Desc d = descs.d[gl_LaunchIDEXT.x];
  Tints tints = Tints(d.tintAddress);
  Tint t = tints.t[d.index];
  float w = float(Words(d.wordAddress).w[0]) / 255.0;
  imageStore(img, ivec2(gl_LaunchIDEXT.xy), vec4(t.color * t.scale, w));
}
`;
const RMISS = `#version 460
#extension GL_EXT_ray_tracing : require
void main() {}
`;

function workload(overrides: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'vv-named-'));
  writeFileSync(join(dir, 'main.rgen'), RGEN);
  writeFileSync(join(dir, 'miss.rmiss'), RMISS);
  const manifest = {
    name: 'named-buffers',
    shaders: { raygen: ['main.rgen'], miss: ['miss.rmiss'] },
    miss: ['miss.rmiss'],
    descriptors: [
      { set: 0, binding: 0, kind: 'storageImage', format: 'rgba8', role: 'output' },
      {
        set: 0, binding: 1, kind: 'storageBuffer', layout: 'scalar',
        value: {
          d: [
            { tintAddress: { addressOf: 'tints' }, wordAddress: { addressOf: 'words' }, index: 1 },
            // The same element by byte offset (Tint is 20 bytes in scalar layout) and by element.
            { tintAddress: { addressOf: 'tints', offset: 20 }, wordAddress: { addressOf: 'words', element: 1 }, index: 0 },
          ],
        },
      },
      // Bound to a binding no shader declares: exists for its address only.
      { set: 1, binding: 7, kind: 'storageBuffer', id: 'words', element: 'uint', value: [51, 204] },
    ],
    buffers: [
      {
        name: 'tints', layout: 'scalar', struct: 'Tint',
        value: [{ color: [1, 0, 0], scale: 1, pad: 0 }, { color: [0, 0.5, 1], scale: 0.5, pad: 0 }],
      },
    ],
    scene: { procedural: 'tri' },
    launch: { width: 2, height: 1 },
    ...overrides,
  };
  writeFileSync(join(dir, 'workload.json'), JSON.stringify(manifest));
  return join(dir, 'workload.json');
}

test('addresses of named buffers reach the shader: by name, with offset and element, bound or not', async (t) => {
  const r = await runWorkload(workload());
  const px = new Float64Array(4);
  readTexel(r.image!, 0, 0, 0, 0, 0, px);
  t.deepEqual([...px].map((x) => Math.round(x * 255)), [0, 64, 128, 51], 'element 1 of tints, word 0');
  readTexel(r.image!, 0, 1, 0, 0, 0, px);
  t.deepEqual([...px].map((x) => Math.round(x * 255)), [0, 64, 128, 204], 'offset 20 bytes of tints is element 1; element 1 of words');
});

test('an addressOf naming no buffer is reported with its key when the manifest loads', (t) => {
  const path = workload({ pushConstants: { where: { addressOf: 'nowhere' } } });
  const e = t.throws(() => loadManifest(path));
  t.true(e instanceof ManifestError);
  t.regex(e!.message, /pushConstants\.where\.addressOf: no buffer named "nowhere" \(buffers: tints, words\)/);
});

test('two buffers with one name are reported', (t) => {
  const path = workload({ buffers: [{ name: 'words', element: 'uint', value: [1] }] });
  const e = t.throws(() => loadManifest(path));
  t.regex(e!.message, /descriptors\[2\]\.id: buffer name "words" is already used by buffers\[0\]\.name/);
});

test('a struct no shader declares is reported with the buffer key', async (t) => {
  const path = workload({ buffers: [{ name: 'tints', struct: 'Tnit', value: [] }] });
  const e = await t.throwsAsync(runWorkload(path));
  t.regex(e!.message, /buffers\[0\]\.struct: no shader declares a struct Tnit/);
});

test('an unbound buffer without a layout says how to give one', async (t) => {
  const path = workload({ buffers: [{ name: 'tints', value: [1, 2] }] });
  const e = await t.throwsAsync(runWorkload(path));
  t.regex(e!.message, /buffers\[0\] \("tints"\): no shader binds this buffer, so its layout is unknown: give "struct"/);
});

test('scene records packed in a struct: a member with no scene field is reported at compile time with the key', async (t) => {
  const path = workload({
    buffers: [
      { name: 'tints', layout: 'scalar', struct: 'Tint', from: 'scene', what: 'vertices', fields: { color: 'normal' } },
    ],
  });
  const e = await t.throwsAsync(runWorkload(path));
  t.regex(e!.message, /buffers\[0\]\.struct: struct Tint's member "scale" has no scene field "scale" in vertices \(fields: position, normal, texCoord, color; map it with "fields"\)/);
});
