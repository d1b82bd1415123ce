/**
 * The SPIR-V reader (src/frontend/spirv): round trips through the writer and spirv-val for every
 * workload shader, debug info back into `loc` and sources, and bad input refused with the file,
 * the word offset and the instruction.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spirvBytes, writeSpirv } from '../../../src/backend/spirv/write-spirv.js';
import { runCompile } from '../../../src/cli/commands/compile.js';
import { compileWorkload, type CompiledWorkload } from '../../../src/driver/compile-workload.js';
import { readSpirv, SpirvReadError } from '../../../src/frontend/spirv/read-module.js';
import { readSpirvFile } from '../../../src/frontend/spirv/read-file.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { parseModuleText } from '../../../src/ir/text-parser.js';
import { Op } from '../../../src/ir/spirv-enums.js';
import { listBuiltinWorkloads, loadManifest } from '../../../src/sim/workload/load-manifest.js';
import { hasGlslang, hasSpirvTools, spirvVal, usesScalarLayout } from '../../backend/spirv/spirv-tools.js';
import { glslangSpirv } from './glslang-spirv.js';

const workloads = listBuiltinWorkloads().map((w) => ({ name: w.name, manifest: loadManifest(w.manifest) }));
const compiled = new Map<string, CompiledWorkload>(workloads.map((w) => [w.name, compileWorkload(w.manifest)]));
const dir = mkdtempSync(join(tmpdir(), 'vv-read-spirv-'));

test('IR -> SPIR-V -> IR -> SPIR-V: every workload shader reads back verifier-clean, keeps its interface, and validates again', (t) => {
  let n = 0;
  for (const [name, c] of compiled) {
    for (const m of c.modules) {
      const again = readSpirv(`${name}.spv`, spirvBytes(writeSpirv(m)));
      t.deepEqual(verifyModule(again), [], `${name} ${m.sources[0]!.path}`);
      t.deepEqual(again.entryPoints.map((e) => e.stage), m.entryPoints.map((e) => e.stage));
      // gl_HitTEXT is BuiltIn RayTmaxKHR in SPIR-V (as glslang writes it): it reads back as RayTmax.
      const builtin = (b: string | undefined) => (b === 'HitT' ? 'RayTmax' : b ?? '');
      // gl_ObjectToWorld3x4EXT has no SPIR-V built-in: a Private copy of the transposed 4x3 one.
      const iface = (x: typeof m) => x.globals.flatMap((g) => {
        if (g.builtin === 'ObjectToWorld3x4' || g.builtin === 'WorldToObject3x4') {
          const base = g.builtin.replace('3x4', '');
          return [`${g.name}:private:::`, `gl_${base}EXT:input:::${base}`];
        }
        return [`${g.name}:${g.storage}:${g.set ?? ''}:${g.binding ?? ''}:${builtin(g.builtin)}`];
      }).sort();
      t.deepEqual(iface(again), iface(m));
      t.deepEqual(again.sources.map((s) => s.path), m.sources.map((s) => s.path));
      t.deepEqual(again.sources.map((s) => s.text), m.sources.map((s) => s.text), 'source text travels in OpSource');
      if (hasSpirvTools) t.is(spirvVal(spirvBytes(writeSpirv(again)), usesScalarLayout(again)), '');
      n++;
    }
  }
  t.is(n, 53, 'the 53 stage modules of the 12 built-in workloads');
});

test('locations: every instruction the writer gave an OpLine reads back with its line', (t) => {
  const m = compiled.get('ao')!.modules[0]!;
  const again = readSpirv('ao.spv', spirvBytes(writeSpirv(m)));
  const lines = (x: typeof m) => new Map(x.functions.flatMap((f) => f.blocks.flatMap((b) => b.insts.map((i) => [i.id as number, `${i.loc.file}:${i.loc.line}:${i.loc.column}`]))));
  const before = lines(m);
  const after = lines(again);
  let compared = 0;
  for (const [id, loc] of before) {
    if (!after.has(id) || loc.endsWith(':0:0')) continue;
    t.is(after.get(id), loc, `%${id}`);
    compared++;
  }
  t.true(compared > 500, `${compared} instructions compared`);
});

(hasGlslang && hasSpirvTools ? test : test.skip)('glslang SPIR-V -> IR -> SPIR-V validates for every workload shader', (t) => {
  let n = 0;
  for (const w of workloads) {
    for (const src of Object.values(w.manifest.shaders).flat()) {
      const m = readSpirvFile(glslangSpirv(src));
      t.deepEqual(verifyModule(m), [], src.file);
      t.true(m.sources[0]!.text.length > 0, 'the main source text comes from OpSource');
      t.true(m.functions.some((f) => f.blocks.some((b) => b.insts.some((i) => i.loc.line > 0))), 'OpLine gives lines');
      t.is(spirvVal(spirvBytes(writeSpirv(m)), true), '', src.file);
      n++;
    }
  }
  t.is(n, 53, 'the 53 stage modules of the 12 built-in workloads');
});

function words(...ws: number[]): Uint8Array {
  const b = new Uint8Array(ws.length * 4);
  const v = new DataView(b.buffer);
  ws.forEach((w, i) => v.setUint32(i * 4, w >>> 0, true));
  return b;
}

test('bad input: the file, the word offset and the instruction are named', (t) => {
  const tri = spirvBytes(writeSpirv(compiled.get('tri')!.modules[0]!));
  t.throws(() => readSpirv('x.spv', new Uint8Array(7)), { instanceOf: SpirvReadError, message: /^x\.spv: not a SPIR-V module: 7 bytes is not a whole number of 32-bit words/ });
  t.throws(() => readSpirv('x.spv', words(0xdeadbeef, 0x10500, 0, 10, 0)), { message: /^x\.spv: word 0: not a SPIR-V module: magic number 0xdeadbeef/ });
  t.throws(() => readSpirv('x.spv', words(0x07230203, 0x20000, 0, 10, 0)), { message: /^x\.spv: word 1: unsupported SPIR-V version 2\.0/ });
  t.throws(() => readSpirv('x.spv', tri.subarray(0, tri.length - 12)), { message: /^x\.spv: word \d+: OpImageWrite has 4 words but the module ends after 3/ });
  t.throws(() => readSpirv('x.spv', tri.subarray(0, tri.length - 4)), { message: /^x\.spv: word \d+: OpFunction: function %\d+ has no OpFunctionEnd/ });
  // OpKill (fragment-only) in place of the raygen's return: refused where it is.
  const w = new Uint32Array(tri.buffer.slice(0));
  const ret = [...w.keys()].reverse().find((i) => w[i] === ((1 << 16) | Op.Return))!;
  w[ret] = (1 << 16) | 252;
  const e = t.throws(() => readSpirv('x.spv', new Uint8Array(w.buffer)), { instanceOf: SpirvReadError });
  t.is(e!.message, `x.spv: word ${ret}: OpKill: is not supported by vvision's SPIR-V reader (no IR instruction has its meaning)`);
  t.throws(() => readSpirv('x.spv', words(0x07230203, 0x10500, 0, 10, 0)), { message: /no OpEntryPoint/ });
});

test('vvision compile reads .spv: --print-ir, the stage check, errors with exit 2 and no stack trace', async (t) => {
  const file = join(dir, 'miss.spv');
  writeFileSync(file, spirvBytes(writeSpirv(compiled.get('tri')!.stages.miss[0]!)));
  let out = '';
  let err = '';
  t.is(await runCompile([file], { include: [], define: [], printIr: true }, (s) => (out += s), (s) => (err += s)), 0, err);
  t.regex(out, /entry miss %\d+ "main"/);
  err = '';
  t.is(await runCompile([file], { include: [], define: [], stage: 'rgen' }, () => {}, (s) => (err += s)), 2);
  t.regex(err, /miss\.spv: error: --stage says raygen, but the module's entry point is a miss shader/);
  const bad = join(dir, 'bad.spv');
  writeFileSync(bad, readFileSync(file).subarray(0, 22));
  err = '';
  t.is(await runCompile([bad], { include: [], define: [] }, () => {}, (s) => (err += s)), 2);
  t.regex(err, /^.*bad\.spv: not a SPIR-V module: 22 bytes/);
  t.notRegex(err, /at .*\.ts:\d+/);
});

test('seeded mutants of a valid module are read or refused with a SpirvReadError, never anything else', (t) => {
  const valid = compiled.get('ao')!.modules.map((m) => writeSpirv(m));
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  let refused = 0;
  for (let i = 0; i < 400; i++) {
    const w = Uint32Array.from(valid[i % valid.length]!);
    for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) {
      const at = 5 + Math.floor(rnd() * (w.length - 5));
      const r = rnd();
      w[at] = r < 0.3 ? w[at]! ^ (1 << Math.floor(rnd() * 32)) : r < 0.6 ? Math.floor(rnd() * 300) : w[Math.floor(rnd() * w.length)]!;
    }
    try {
      readSpirv('mutant.spv', spirvBytes(w));
    } catch (e) {
      if (!(e instanceof SpirvReadError)) t.fail(`mutant ${i}: ${(e as Error).stack}`);
      refused++;
    }
  }
  t.true(refused > 100, `${refused} of 400 refused`);
});

(hasGlslang ? test : test.skip)('NonSemantic.Shader.DebugInfo (glslang -gV): DebugLine gives the lines', (t) => {
  const src = workloads.find((w) => w.name === 'tri')!.manifest.shaders.raygen[0]!;
  const out = join(dir, 'tri-gV.spv');
  const r = spawnSync('glslangValidator', ['-V', '-gV', '--target-env', 'vulkan1.2', ...src.includeDirs.map((d) => `-I${d}`), src.file, '-o', out], { encoding: 'utf8' });
  t.is(r.status, 0, r.stdout);
  const m = readSpirvFile(out);
  const lines = new Set(m.functions.flatMap((f) => f.blocks.flatMap((b) => b.insts.map((i) => i.loc.line))));
  const storeLine = readFileSync(src.file, 'utf8').split('\n').findIndex((l) => l.includes('imageStore')) + 1;
  t.true(lines.has(storeLine), `the imageStore line ${storeLine} is among ${[...lines].sort((a, b) => a - b).join(',')}`);
  t.true(m.sources.some((s) => s.path.endsWith('camera.glsl')), 'the #included file is a source');
});

test('vvision compile -o writes SPIR-V (1.6 with --target-env vulkan1.3) that reads back; -o takes one input', async (t) => {
  const src = workloads.find((w) => w.name === 'tri')!.manifest.shaders.miss[0]!.file;
  const out = join(dir, 'miss-13.spv');
  let err = '';
  t.is(await runCompile([src], { include: [], define: [], output: out, targetEnv: 'vulkan1.3' }, () => {}, (s) => (err += s)), 0, err);
  const bytes = new Uint8Array(readFileSync(out));
  t.is(new DataView(bytes.buffer).getUint32(4, true), 0x00010600);
  if (hasSpirvTools) t.is(spirvVal(bytes, false, 'vulkan1.3'), '');
  t.is(readSpirv(out, bytes).entryPoints[0]!.stage, 'miss');
  err = '';
  t.is(await runCompile([src, src], { include: [], define: [], output: out }, () => {}, (s) => (err += s)), 2);
  t.regex(err, /-o writes one SPIR-V module; give exactly one input file \(got 2\)/);
});

(hasGlslang ? test : test.skip)('OpSpecConstantOp: the expression is computed where it is used, from the specialization constant', (t) => {
  const src = join(dir, 'spec.rmiss');
  writeFileSync(src, '#version 460\n#extension GL_EXT_ray_tracing : require\nlayout(constant_id = 0) const uint N = 8;\nconst uint M = N * 2u + 1u;\n'
    + 'layout(location = 0) rayPayloadInEXT vec3 p;\nvoid helper() { p.y = float(M); }\nvoid main() { p = vec3(float(M)); helper(); }\n');
  const out = join(dir, 'spec.spv');
  const r = spawnSync('glslangValidator', ['-V', '--target-env', 'vulkan1.2', src, '-o', out], { encoding: 'utf8' });
  t.is(r.status, 0, r.stdout);
  const m = readSpirvFile(out);
  const n = m.constants.find((c) => c.specId === 0)!;
  t.is(n.value, 8);
  for (const f of m.functions) {
    const insts = f.blocks.flatMap((b) => b.insts);
    const mul = insts.find((i) => i.op === 'binary' && i.kind === 'mul');
    t.truthy(mul, `@${f.name} computes N * 2`);
    t.true(mul!.op === 'binary' && mul!.a === n.id);
    t.truthy(insts.find((i) => i.op === 'binary' && i.kind === 'add' && i.a === mul!.id), `@${f.name} adds 1 to it`);
  }
  if (hasSpirvTools) t.is(spirvVal(spirvBytes(writeSpirv(m)), false), '');
});

// fact(n) = n <= 1 ? 1 : n * fact(n - 1), as IR text: neither front end makes it, a hand-written module could.
const RECURSIVE = `
source 0 "fact.comp" ""
type !0 = u32
type !1 = array<u32, stride=4>
type !2 = struct "Out" uid=1 block layout=std430 {
  "v": array<u32, stride=4> offset=0
}
const %1: u32 = 0
const %2: u32 = 1
global %11 "out": ptr<storageBuffer, $Out> storageBuffer set=0 binding=0
entry compute %20 "main" localSize=(1, 1, 1)
fn %40 @fact(%41: u32 "n") -> u32 {   ; 10:1
^b42 "entry":
  %43: bool = compare le %41 %2   ; 11:3
  %44 = condBranch %43 ^b45 ^b46   ; 11:3
^b45 "base":
  %47 = return %2   ; 11:20
^b46 "rec":
  %48: u32 = binary sub %41 %2   ; 12:3
  %49: u32 = call %40 @fact (%48)   ; 12:14
  %50: u32 = binary mul %41 %49   ; 12:10
  %51 = return %50   ; 12:3
}
fn %20 @main() -> void {   ; 1:1
^b21 "entry":
  %33: u32 = call %40 @fact (%2)   ; 3:3
  %34: ptr<storageBuffer, u32> = accessChain %11 (%1, %1)   ; 4:3
  %35 = store %34 %33   ; 4:3
  %36 = return   ; 5:1
}
`;

/** Word offsets of the instructions of `opcode` in a module's words. */
function offsetsOf(words: Uint32Array, opcode: number): number[] {
  const out: number[] = [];
  for (let at = 5; at < words.length; at += words[at]! >>> 16) if ((words[at]! & 0xffff) === opcode) out.push(at);
  return out;
}

test('a recursive module is refused at the word of the OpFunctionCall that closes the cycle', (t) => {
  const words = writeSpirv(parseModuleText(RECURSIVE));
  const e = t.throws(() => readSpirv('fact.spv', spirvBytes(words)), { instanceOf: SpirvReadError })!;
  const inFact = offsetsOf(words, Op.FunctionCall).find((at) => words[at + 3] === 40 && words[at + 2] === 49);
  t.truthy(inFact);
  t.is(e.wordOffset, inFact);
  t.is(e.message, `fact.spv: word ${inFact}: OpFunctionCall: recursion detected: 'fact' calls itself (Vulkan forbids static recursion)`);
});

test('a module that fails the IR verifier is refused at the word of the instruction the problem names', (t) => {
  // The last OpLoad of ao's raygen made to load through its own result: a use before the definition.
  const words = writeSpirv(compiled.get('ao')!.modules[0]!);
  const loads = offsetsOf(words, Op.Load);
  const at = loads[loads.length - 1]!;
  const mutant = Uint32Array.from(words);
  mutant[at + 3] = mutant[at + 2]!; // load from its own result id
  const e = t.throws(() => readSpirv('ao.spv', spirvBytes(mutant)), { instanceOf: SpirvReadError })!;
  t.regex(e.message, /^ao\.spv: word \d+: /);
  t.is(e.wordOffset, at, e.message);
});

(hasGlslang ? test : test.skip)("glslang's SPIR-V of a variable past MAX_VARIABLE_SCALARS is refused at the OpVariable's word", (t) => {
  const src = join(dir, 'huge.rgen');
  writeFileSync(src, '#version 460\n#extension GL_EXT_ray_tracing : require\nlayout(location = 0) rayPayloadEXT vec4 p;\nvoid main() {\n  uint a[100000000];\n  a[7] = 3u;\n  p = vec4(a[7]);\n}\n');
  const out = join(dir, 'huge.spv');
  const g = spawnSync('glslangValidator', ['-V', '-g', '--target-env', 'vulkan1.2', src, '-o', out], { encoding: 'utf8' });
  t.is(g.status, 0, g.stdout);
  const e = t.throws(() => readSpirvFile(out), { instanceOf: SpirvReadError })!;
  const words = new Uint32Array(new Uint8Array(readFileSync(out)).buffer);
  t.true(offsetsOf(words, Op.Variable).includes(e.wordOffset!), e.message);
  t.regex(e.message, /: word \d+: OpVariable: variable 'a' of type \[u32; 100000000\] holds 100000000 scalar components; vvision's limit is 4096/);
});
