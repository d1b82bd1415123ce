/**
 * `vvision compile` (src/cli/commands/compile.ts): options, output forms, diagnostics on stderr,
 * exit status 0 / 2, through both `runCompile` and the registered commander command.
 */
import test from 'ava';
import { Command } from 'commander';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeGlslcArgv, parseDefines, registerCompileCommand, runCompile } from '../../../src/cli/commands/compile.js';

const dir = mkdtempSync(join(tmpdir(), 'vv-cli-'));
const good = join(dir, 'good.rmiss');
writeFileSync(good, '#version 460\n#extension GL_EXT_ray_tracing : require\nlayout(location = 0) rayPayloadInEXT vec3 p;\nvoid main() { p = vec3(SKY); }\n');
const bad = join(dir, 'bad.rgen');
writeFileSync(bad, '#version 460\n#extension GL_EXT_ray_tracing : require\nvoid main() { float x = y; }\n');
const neutral = join(dir, 'shader.glsl');
writeFileSync(neutral, '#version 460\n#extension GL_EXT_ray_tracing : require\nlayout(location = 0) rayPayloadInEXT vec3 p;\nvoid main() { p = vec3(1.0); }\n');

async function run(files: string[], opts: Partial<Parameters<typeof runCompile>[1]> = {}) {
  let out = '';
  let err = '';
  const status = await runCompile(files, { include: [], define: [], ...opts }, (s) => (out += s), (s) => (err += s));
  return { status, out, err };
}

test('defines: NAME=VALUE and bare NAME', async (t) => {
  t.deepEqual(parseDefines(['A=1', 'B', 'C=x=y']), { A: '1', B: '1', C: 'x=y' });
});

test('success prints the IR with --print-ir and exits 0', async (t) => {
  const r = (await run([good], { define: ['SKY=0.5'], printIr: true }));
  t.is(r.status, 0, r.err);
  t.regex(r.out, /entry miss %\d+ "main"/);
  t.is(r.err, '');
});

test('--json prints a parseable module', async (t) => {
  const r = (await run([good], { define: ['SKY=0.5'], json: true }));
  t.is(r.status, 0);
  const m = JSON.parse(r.out) as { entryPoints: { stage: string }[]; types: { index?: unknown } };
  t.is(m.entryPoints[0]!.stage, 'miss');
  t.is(m.types.index, undefined);
});

test('errors go to stderr as file:line:col and exit 2; other files still compile', async (t) => {
  const r = (await run([bad, good], { define: ['SKY=1.0'], printIr: true }));
  t.is(r.status, 2);
  t.regex(r.err, new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:25: error: undeclared identifier 'y'`, 'm'));
  t.regex(r.out, /entry miss/);
  t.is((await run([good])).status, 2, 'SKY undefined without -D');
});

test('--stage selects the stage for files without an RT extension; bad stage and missing file are errors', async (t) => {
  t.is((await run([neutral])).status, 2);
  const r = (await run([neutral], { stage: 'rchit', printIr: true }));
  t.is(r.status, 0, r.err);
  t.regex(r.out, /entry closestHit/);
  t.regex((await run([neutral], { stage: 'vert' })).err, /unknown stage 'vert'/);
  t.regex((await run([join(dir, 'nope.rgen')])).err, /nope\.rgen: error: cannot open file/);
});

test.serial('registered commander command parses -I / -D / --stage / --print-ir', async (t) => {
  const program = new Command();
  program.exitOverride();
  registerCompileCommand(program);
  const writes: string[] = [];
  const orig = process.stdout.write.bind(process.stdout);
  const prevExit = process.exitCode;
  process.stdout.write = ((s: string) => (writes.push(String(s)), true)) as typeof process.stdout.write;
  try {
    await program.parseAsync(['compile', '-I', dir, '-D', 'SKY=2.0', '--print-ir', good], { from: 'user' });
  } finally {
    process.stdout.write = orig;
  }
  t.is(process.exitCode ?? 0, 0);
  process.exitCode = prevExit;
  t.regex(writes.join(''), /entry miss/);
});

// glslc's conventions: a production path tracer's hit shader starts with #include "util.glsl" and no
// extension directive; glslangValidator (the default) rejects it, glslc accepts it.
const glslcDir = mkdtempSync(join(tmpdir(), 'vv-glslc-'));
writeFileSync(join(glslcDir, 'util.glsl'), 'vec3 shade(vec3 n) { return 0.5 * n + 0.5; }\n');
const hit = join(glslcDir, 'hit.rchit');
writeFileSync(hit, '#version 460\n#extension GL_EXT_ray_tracing : require\n#include "util.glsl"\n'
  + 'layout(location = 0) rayPayloadInEXT vec3 p;\nvoid main() { p = shade(vec3(gl_HitTEXT)); }\n');
const glslcNeutral = join(glslcDir, 'hit.glsl');
writeFileSync(glslcNeutral, readFileSync(hit, 'utf8'));

test('glslc: default conventions reject #include without the extension; --glslc accepts it', async (t) => {
  const def = (await run([hit]));
  t.is(def.status, 2);
  t.regex(def.err, /hit\.rchit:3:1: error: '#include' requires '#extension GL_GOOGLE_include_directive/);
  const glslc = (await run([hit], { glslc: true, printIr: true }));
  t.is(glslc.status, 0, glslc.err);
  t.regex(glslc.out, /entry closestHit/);
});

test.serial('glslc: -fshader-stage= / -std= / --target-env= through the vvision argv, bad values exit 2', async (t) => {
  const argv = normalizeGlslcArgv(['compile', '-fshader-stage=rchit', '-std=460core', '--target-env=vulkan1.2', `-I${glslcDir}`, '--print-ir', glslcNeutral]);
  t.deepEqual(argv.slice(1, 3), ['--fshader-stage=rchit', '--std=460core']);
  const program = new Command();
  program.exitOverride();
  registerCompileCommand(program);
  const writes: string[] = [];
  const orig = process.stdout.write.bind(process.stdout);
  const prevExit = process.exitCode;
  process.stdout.write = ((s: string) => (writes.push(String(s)), true)) as typeof process.stdout.write;
  try {
    await program.parseAsync(argv, { from: 'user' });
  } finally {
    process.stdout.write = orig;
  }
  t.is(process.exitCode ?? 0, 0);
  process.exitCode = prevExit;
  t.regex(writes.join(''), /entry closestHit/);
  t.regex((await run([glslcNeutral], { fshaderStage: 'vertex' })).err, /-fshader-stage=vertex: unknown stage/);
  t.regex((await run([glslcNeutral], { fshaderStage: 'rchit', std: '310es' })).err, /-std=310es: the es profile has no ray tracing/);
  t.is((await run([glslcNeutral], { fshaderStage: 'rchit', targetEnv: 'vulkan1.0' })).status, 2);
  t.regex((await run([glslcNeutral], { glslc: true })).err, /hit\.glsl:1:1: error: cannot tell the shader stage/);
});
