import test from 'ava';
import { Builder, addFunction, addGlobal } from '../../src/ir/builder.js';
import { newModule } from '../../src/ir/module.js';
import { printFunction, printInst, printModule } from '../../src/ir/printer.js';
import { T, declareStruct, intern } from '../../src/ir/types.js';

function tiny() {
  const m = newModule();
  m.sources.push({ path: 'shaders/pt.rchit', text: 'line "one"\n' });
  m.sources.push({ path: 'inc/common.glsl', text: '' });
  m.extensions.push('GL_EXT_ray_tracing');
  const tt = m.types;
  const tPay = declareStruct(tt, 'Payload', [{ name: 'color', type: T.vec(tt, T.f32(tt), 3), offset: 0 }], { layout: 'scalar', block: true });
  const tlas = addGlobal(m, { name: 'tlas', type: T.ptr(tt, 'uniformConstant', intern(tt, { kind: 'accelerationStructure' })), storage: 'uniformConstant', set: 0, binding: 0, loc: { file: 0, line: 3, column: 1 } });
  void tlas;
  const pay = addGlobal(m, { name: 'payload', type: T.ptr(tt, 'incomingRayPayload', tPay), storage: 'incomingRayPayload', location: 0, loc: { file: 0, line: 4, column: 1 } });
  const fn = addFunction(m, { name: 'main', returnType: T.void(tt), loc: { file: 0, line: 6, column: 1 } });
  m.entryPoints.push({ stage: 'closestHit', function: fn.id, name: 'main' });
  const b = new Builder(m, fn);
  b.setInsertPoint(b.createBlock('entry'));
  b.loc = { file: 1, line: 7, column: 5 };
  const v = b.emit('variable', {}, b.t.ptr('function', b.t.f32));
  const p = b.emit('accessChain', { base: pay, indices: [b.constI32(0)] }, b.t.ptr('incomingRayPayload', b.t.vec(b.t.f32, 3)));
  const c = b.emit('load', { ptr: p }, b.t.vec(b.t.f32, 3), { file: 0, line: 8, column: 9 });
  b.emit('store', { ptr: v, value: b.emit('extract', { value: c, indices: [1] }, b.t.f32) }, b.t.void);
  b.emitVoid('return', {});
  return { m, fn };
}

test('module text layout', (t) => {
  const { m } = tiny();
  t.is(
    printModule(m),
    `; vvision IR
nextId 12
nextStructUid 2
extension "GL_EXT_ray_tracing"
source 0 "shaders/pt.rchit" "line \\"one\\"\\n"
source 1 "inc/common.glsl" ""
type !0 = f32
type !1 = vec3<f32>
type !2 = struct "Payload" uid=1 block layout=scalar {
  "color": vec3<f32> offset=0
}
type !3 = accel
type !4 = ptr<uniformConstant, accel>
type !5 = ptr<incomingRayPayload, $Payload>
type !6 = void
type !7 = ptr<function, f32>
type !8 = i32
type !9 = ptr<incomingRayPayload, vec3<f32>>
const %6: i32 = 0
global %1 "tlas": ptr<uniformConstant, accel> uniformConstant set=0 binding=0   ; 3:1
global %2 "payload": ptr<incomingRayPayload, $Payload> incomingRayPayload location=0   ; 4:1
entry closestHit %3 "main"
fn %3 @main() -> void {   ; 6:1
^b4 "entry":
  %5: ptr<function, f32> = variable   ; 1:7:5
  %7: ptr<incomingRayPayload, vec3<f32>> = accessChain %2 (%6)   ; 1:7:5
  %8: vec3<f32> = load %7   ; 8:9
  %9: f32 = extract %8 [1]   ; 1:7:5
  %10 = store %5 %9   ; 1:7:5
  %11 = return   ; 1:7:5
}
`,
  );
});

test('printFunction and printInst print one piece', (t) => {
  const { m, fn } = tiny();
  const text = printFunction(m, fn);
  t.true(text.startsWith('fn %3 @main() -> void {'));
  t.true(text.endsWith('}\n'));
  t.is(printInst(m, fn.blocks[0]!.insts[2]!), '%8: vec3<f32> = load %7   ; 8:9');
});

test('printing is deterministic and does not mutate the module', (t) => {
  const { m } = tiny();
  const before = JSON.stringify(m, (_k, v) => (v instanceof Map ? undefined : v));
  const a = printModule(m);
  t.is(printModule(m), a);
  t.is(JSON.stringify(m, (_k, v) => (v instanceof Map ? undefined : v)), before);
});

test('function names that are not plain words are quoted', (t) => {
  const m = newModule();
  const fn = addFunction(m, { name: 'shade(vf3;', returnType: T.void(m.types) });
  const b = new Builder(m, fn);
  b.setInsertPoint(b.createBlock());
  b.emitVoid('return', {});
  t.true(printModule(m).includes('fn %1 @"shade(vf3;"() -> void {'));
});
