/**
 * Agreement with glslang (the reference compiler), when `glslangValidator` is installed:
 * - every valid fixture and workload shader is accepted by both;
 * - every invalid fixture is rejected by both, with the first error on the same line;
 * - block layouts (offsets, array strides, matrix strides) equal glslang's SPIR-V decorations for
 *   std140, std430, scalar, push-constant, shader-record and buffer_reference blocks.
 * Without glslang these tests are skipped (the rest of the suite does not need it).
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import type { Module } from '../../../src/ir/module.js';
import type { TypeId } from '../../../src/ir/types.js';

const FIXTURES = 'test/frontend/glsl/compile-fixtures';
const INCLUDES = [join(FIXTURES, 'include'), 'workloads/common'];
const hasGlslang = spawnSync('glslangValidator', ['--version']).status === 0 && spawnSync('spirv-dis', ['--version']).status === 0;
const maybe = hasGlslang ? test : test.skip;
const work = mkdtempSync(join(tmpdir(), 'vv-glslang-'));

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else if (/\.(rgen|rchit|rmiss|rahit|rint|rcall|comp)$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

function glslang(file: string, out: string): { ok: boolean; firstErrorLine?: number; text: string } {
  const r = spawnSync('glslangValidator', ['--target-env', 'vulkan1.2', '-V', ...INCLUDES.map((d) => `-I${d}`), file, '-o', out], { encoding: 'utf8' });
  const m = /ERROR: [^:]+:(\d+):/.exec(r.stdout);
  return { ok: r.status === 0, ...(m ? { firstErrorLine: Number(m[1]) } : {}), text: r.stdout };
}

for (const file of [...files(join(FIXTURES, 'valid')), ...files('workloads')]) {
  maybe(`glslang and vvision both accept ${file}`, (t) => {
    const g = glslang(file, join(work, 'out.spv'));
    t.true(g.ok, g.text);
    const r = compileGlsl(file, undefined, { includeDirs: INCLUDES });
    t.truthy(r.module, r.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join('\n'));
  });
}

for (const file of files(join(FIXTURES, 'invalid'))) {
  maybe(`glslang and vvision both reject ${file} on the same line`, (t) => {
    const g = glslang(file, join(work, 'bad.spv'));
    t.false(g.ok);
    const r = compileGlsl(file, undefined, { includeDirs: INCLUDES });
    t.is(r.module, undefined);
    const first = r.diagnostics.find((d) => d.severity === 'error')!;
    t.is(first.line as number | undefined, g.firstErrorLine, `glslang: ${g.text}\nvvision: ${first.line}:${first.column} ${first.message}`);
  });
}

for (const file of files(join(FIXTURES, 'recursion'))) {
  maybe(`glslang and vvision both reject the static recursion in ${file}, naming the same calls`, (t) => {
    const g = glslang(file, join(work, 'bad.spv'));
    t.false(g.ok);
    // glslang: "Recursion detected:\n    odd(i1; calling even(i1;" (a link error, no line).
    const glslangCalls = [...g.text.matchAll(/Recursion detected:\s+(\w+)\([^ ]* calling (\w+)\(/g)].map((m) => `${m[1]}->${m[2]}`);
    const r = compileGlsl(file);
    const ours = r.diagnostics.map((d) => /recursion detected: '(\w+)' calls (?:'(\w+)'|itself)/.exec(d.message)).map((m) => `${m![1]}->${m![2] ?? m![1]}`);
    t.true(glslangCalls.length > 0, g.text);
    t.deepEqual(ours.sort(), glslangCalls.sort());
  });
}

// ------------------------------------------------------------------ layouts

/** Offsets/strides of a type as one comparable string: `{0:v,16m16:v,32:[16]{...}}`. */
type Sig = string;

function irSignature(m: Module, id: TypeId): Sig {
  const t = m.types.types[id]!;
  switch (t.kind) {
    case 'struct':
      return `{${t.members.map((mb) => `${mb.offset}${mb.matrixStride ? 'm' + mb.matrixStride : ''}:${irSignature(m, mb.type)}`).join(',')}}`;
    case 'array':
      return `[${t.stride}]${irSignature(m, t.elem)}`;
    case 'runtimeArray':
      return `[${t.stride}]${irSignature(m, t.elem)}`;
    case 'pointer':
      return t.storage === 'physicalStorageBuffer' ? 'p' : 'v';
    default:
      return 'v';
  }
}

function spirvSignatures(dis: string): Map<string, Sig> {
  const names = new Map<string, string>();
  const structs = new Map<string, string[]>();
  const arrays = new Map<string, string>();
  const offsets = new Map<string, Map<number, number>>();
  const mstrides = new Map<string, Map<number, number>>();
  const astrides = new Map<string, number>();
  const pointers = new Set<string>();
  const blocks = new Set<string>();
  for (const line of dis.split('\n')) {
    const s = line.trim();
    let m: RegExpExecArray | null;
    if ((m = /^OpName (%\S+) "(.*)"$/.exec(s))) names.set(m[1]!, m[2]!);
    else if ((m = /^(%\S+) = OpTypeStruct ?(.*)$/.exec(s))) structs.set(m[1]!, m[2] ? m[2].split(' ') : []);
    else if ((m = /^(%\S+) = OpType(?:Runtime)?Array (%\S+)/.exec(s))) arrays.set(m[1]!, m[2]!);
    else if ((m = /^(%\S+) = OpTypePointer PhysicalStorageBuffer/.exec(s))) pointers.add(m[1]!);
    else if ((m = /^OpMemberDecorate (%\S+) (\d+) Offset (\d+)$/.exec(s))) {
      if (!offsets.has(m[1]!)) offsets.set(m[1]!, new Map());
      offsets.get(m[1]!)!.set(Number(m[2]), Number(m[3]));
    } else if ((m = /^OpMemberDecorate (%\S+) (\d+) MatrixStride (\d+)$/.exec(s))) {
      if (!mstrides.has(m[1]!)) mstrides.set(m[1]!, new Map());
      mstrides.get(m[1]!)!.set(Number(m[2]), Number(m[3]));
    } else if ((m = /^OpDecorate (%\S+) ArrayStride (\d+)$/.exec(s))) astrides.set(m[1]!, Number(m[2]));
    else if ((m = /^OpDecorate (%\S+) Block$/.exec(s))) blocks.add(m[1]!);
  }
  const sig = (id: string, depth = 0): Sig => {
    if (depth > 8) return 'p';
    if (structs.has(id)) {
      const ms = structs.get(id)!;
      return `{${ms.map((mt, i) => `${offsets.get(id)?.get(i)}${mstrides.get(id)?.get(i) ? 'm' + mstrides.get(id)!.get(i) : ''}:${sig(mt, depth + 1)}`).join(',')}}`;
    }
    if (arrays.has(id)) return `[${astrides.get(id)}]${sig(arrays.get(id)!, depth + 1)}`;
    if (pointers.has(id)) return 'p';
    return 'v';
  };
  const out = new Map<string, Sig>();
  for (const b of blocks) out.set(names.get(b) ?? b, sig(b));
  return out;
}

const LAYOUT_SHADER = `#version 460
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 1) in;
struct Inner { vec3 a; float b; vec2 c; };
struct Outer { Inner inner[2]; mat3 m; float tail; dvec3 d; bool flag; };
struct Light { vec3 position; float radius; vec3 color; int kind; mat4x3 xf; };
layout(std140, set = 0, binding = 0) uniform U140 { Outer o; float f[3]; vec3 v3; float after; mat2 m2; mat2x3 m23; ivec2 iv[2]; Light lights[4]; } u140;
layout(std430, set = 0, binding = 1) buffer S430 { Outer o; float f[3]; vec3 v3arr[3]; mat2 m2; mat3x2 m32; uvec3 tri; uint64_t addr; Light lights[]; } s430;
layout(scalar, set = 0, binding = 2) buffer SScalar { Inner inner[3]; vec3 v[2]; mat3 m; float x; dvec2 dd; Outer o; } ss;
layout(push_constant) uniform Push { mat4 viewProj; vec3 eye; int frame; float f[2]; Inner i; } pc;
layout(std140, set = 0, binding = 3) uniform Explicit { layout(offset = 32) vec4 a; layout(offset = 64) float b; layout(row_major) mat3 r; mat2x3 c; } ex;
layout(buffer_reference, scalar, buffer_reference_align = 4) buffer Verts { vec3 p[]; };
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430) buffer Node { Node next; vec3 value; float weight; };
layout(std430, set = 0, binding = 4) buffer Refs { Verts verts; Node head; int count; } refs;
layout(std140, set = 1, binding = 0) uniform Nested { float aa[2][3]; bool flag; ivec3 iv[2]; mat3x4 m34[2]; vec2 tail; } nested;
layout(std430, set = 1, binding = 1) buffer Nested430 { float aa[2][3]; bool flag; ivec3 iv[2]; mat3x4 m34[2]; vec2 tail; dvec3 dv; float last; } nested430;
void main() {
  float s = nested.aa[1][2] + nested430.aa[1][2] + nested430.last + u140.o.tail + s430.o.tail + ss.x + pc.f[1] + ex.b + refs.verts.p[0].x + refs.head.next.weight;
  s430.f[0] = s;
}
`;

maybe('block layouts match glslang (std140, std430, scalar, push constant, offsets, buffer_reference)', (t) => {
  const file = join(work, 'layout.comp');
  writeFileSync(file, LAYOUT_SHADER);
  const g = glslang(file, join(work, 'layout.spv'));
  t.true(g.ok, g.text);
  const dis = execFileSync('spirv-dis', [join(work, 'layout.spv')], { encoding: 'utf8' });
  const expected = spirvSignatures(dis);
  const r = compileGlsl(file, LAYOUT_SHADER);
  t.truthy(r.module, r.diagnostics.map((d) => d.message).join('\n'));
  const m = r.module!;
  const ours = new Map<string, Sig>();
  for (const [i, ty] of m.types.types.entries()) {
    if (ty.kind === 'struct' && ty.block && ty.members.length) ours.set(ty.name, irSignature(m, i as TypeId));
  }
  // A non-trivial signature, so the comparison cannot pass vacuously.
  t.regex(ours.get('S430') ?? '', /^\{0:\{0:\[32\]\{0:v,12:v,16:v\},64m16:v,112:v,128:v,152:v\},160:\[4\]v,176:\[16\]v,/);
  for (const name of ['U140', 'S430', 'SScalar', 'Push', 'Explicit', 'Verts', 'Node', 'Refs', 'Nested', 'Nested430']) {
    t.truthy(expected.get(name), `glslang has no block ${name}`);
    t.is(ours.get(name), expected.get(name), name);
  }
});
