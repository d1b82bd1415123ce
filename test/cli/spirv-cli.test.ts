/**
 * The SPIR-V and glslc additions through the real `vvision` process (argv as a user types it):
 * `instrument --emit-spirv`, `compile x.spv`, `compile -fshader-stage= -std=`; errors are one
 * message and a non-zero exit, never a stack trace.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VVISION } from './vvision-command.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'vv-spirv-cli-'));

function vvision(args: string[]) {
  const r = spawnSync(process.execPath, [...VVISION, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('instrument --emit-spirv writes the modules, metadata and buffer description; compile reads a written module', (t) => {
  const spirv = join(dir, 'spirv');
  const r = vvision(['instrument', '--mode', 'simt', 'tri', '--width', '8', '--height', '8', '--out', join(dir, 'run'), '--emit-spirv', spirv, '--spirv-binding', '2:3']);
  t.is(r.status, 0, r.stderr);
  t.regex(r.stdout, /SPIR-V \(vulkan1\.2\): 3 instrumented modules, buffer at set 2 binding 3: .*instrumentation-buffer\.json/);
  const d = JSON.parse(readFileSync(join(spirv, 'instrumentation-buffer.json'), 'utf8')) as { set: number; modes: { shaders: { file: string }[] }[] };
  t.is(d.set, 2);
  for (const s of d.modes[0]!.shaders) t.true(existsSync(join(spirv, s.file)), s.file);
  t.true(existsSync(join(spirv, 'runs', 'simt', 'metadata.json')));
  const c = vvision(['compile', '--print-ir', join(spirv, d.modes[0]!.shaders[0]!.file)]);
  t.is(c.status, 0, c.stderr);
  t.regex(c.stdout, /global %\d+ "vvision_instrumentation": .* set=2 binding=3/);
});

test('errors: a binding the shader uses, a bad target env, a broken .spv', (t) => {
  const clash = vvision(['instrument', '--mode', 'simt', 'tri', '--width', '8', '--height', '8', '--out', join(dir, 'run2'), '--emit-spirv', join(dir, 'spirv2'), '--spirv-binding', '0:1']);
  t.is(clash.status, 1);
  t.regex(clash.stderr, /^vvision: error: --spirv-binding 0:1: the workload binds a storageImage there; choose a free set and binding/);
  t.false(existsSync(join(dir, 'run2')), 'refused before simulating');
  t.false(existsSync(join(dir, 'spirv2')));
  t.notRegex(clash.stderr, /\.ts:\d+/);
  const env = vvision(['instrument', '--mode', 'simt', 'tri', '--emit-spirv', join(dir, 'spirv3'), '--target-env', 'vulkan1.1']);
  t.is(env.status, 1);
  t.regex(env.stderr, /--target-env=vulkan1\.1: ray tracing shaders need SPIR-V 1\.4/);
  const bad = join(dir, 'bad.spv');
  writeFileSync(bad, 'not spir-v at all');
  const b = vvision(['compile', bad]);
  t.is(b.status, 2);
  t.regex(b.stderr, /bad\.spv: not a SPIR-V module/);
});

test('compile with glslc spellings: -fshader-stage=rmiss -std=460 -Idir', (t) => {
  writeFileSync(join(dir, 'sky.glsl'), 'vec3 sky() { return vec3(0.5); }\n');
  const file = join(dir, 'miss.glsl');
  writeFileSync(file, '#version 460\n#extension GL_EXT_ray_tracing : require\n#include "sky.glsl"\nlayout(location = 0) rayPayloadInEXT vec3 p;\nvoid main() { p = sky(); }\n');
  const r = vvision(['compile', '-fshader-stage=rmiss', '-std=460', `-I${dir}`, '--print-ir', file]);
  t.is(r.status, 0, r.stderr);
  t.regex(r.stdout, /entry miss/);
  const d = vvision(['compile', '--stage', 'rmiss', file]);
  t.is(d.status, 2);
  t.regex(d.stderr, /miss\.glsl:3:1: error: '#include' requires/);
});
