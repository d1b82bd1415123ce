import test from 'ava';
import { Builder, addFunction } from '../../../src/ir/builder.js';
import { T } from '../../../src/ir/types.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { INSTRUMENTATION_BINDING, INSTRUMENTATION_SET } from '../../../src/primitives/buffer-layout.js';
import { instrumentModule, instrumentPipeline, UnknownInstrumentationModeError } from '../../../src/passes/instrument/instrument-module.js';
import { METADATA_OPTION, metadataOf } from '../../../src/passes/instrument/instrumentation-passes.js';
import { passByName } from '../../../src/passes/registry.js';
import type { PassContext } from '../../../src/passes/pass.js';
import { bounceLoopShader, branchShader, shaderModule, work } from '../../primitives/ir-fixture.js';

test('one registered pass per utility; stage modules share one metadata through the context', (t) => {
  for (const mode of ['simt', 'divergence', 'paths', 'trace', 'its']) t.truthy(passByName(`instrument-${mode}`), mode);
  const pass = passByName('instrument-simt')!;
  const ctx: PassContext = { verify: true, options: {} };
  const a = branchShader(12);
  const b = bounceLoopShader();
  t.is(pass.run(a.m, ctx), 'changed');
  t.is(pass.run(b.m, ctx), 'changed');
  const meta = metadataOf(ctx)!;
  t.deepEqual(meta.shaders.map((s) => s.name), ['branch.rgen', 'bounce.rgen']);
  t.deepEqual(meta.sites.map((s) => s.id), meta.sites.map((_, i) => i));
  t.deepEqual(meta.sites.map((s) => s.shader), [0, 0, 0, 0, 1, 1, 1, 1, 1]);
  for (const m of [a.m, b.m]) {
    t.deepEqual(verifyModule(m), []);
    const g = m.globals.filter((x) => x.set === INSTRUMENTATION_SET && x.binding === INSTRUMENTATION_BINDING);
    t.is(g.length, 1);
  }
  t.throws(() => pass.run(a.m, { verify: true, options: { [METADATA_OPTION]: { nope: 1 } } }), { instanceOf: TypeError });
});

test('a stage a mode does not instrument is left untouched', (t) => {
  const f = shaderModule('closestHit', 'hit.rchit');
  work(f, 2, 2);
  f.b.emitVoid('return', {});
  const globals = f.m.globals.length;
  const pass = passByName('instrument-paths')!;
  t.is(pass.run(f.m, { verify: true, options: {} }), 'unchanged');
  t.is(f.m.globals.length, globals);
});

test('helper functions called from the entry point are instrumented as part of its shader', (t) => {
  const f = shaderModule('raygen', 'calls.rgen');
  const helper = addFunction(f.m, { name: 'shade', returnType: T.void(f.m.types) });
  const hb = new Builder(f.m, helper);
  hb.setInsertPoint(hb.createBlock('entry'));
  hb.loc = { file: 0, line: 9, column: 3 };
  hb.emit('binary', { kind: 'add', a: hb.constU32(1), b: hb.constU32(2) }, hb.t.u32);
  hb.emitVoid('return', {});
  f.b.loc = { file: 0, line: 3, column: 3 };
  f.b.emit('call', { callee: helper.id, args: [] }, T.void(f.m.types));
  f.b.emitVoid('return', {});
  const meta = instrumentModule(f.m, 'simt');
  t.deepEqual(verifyModule(f.m), []);
  t.deepEqual(meta.sites.map((s) => [s.function, s.shader, s.loc.line]), [['main', 0, 3], ['shade', 0, 9]]);
  t.deepEqual(meta.shaders[0]!.cfg.map((c) => c.name), ['main', 'shade']);
});

test('an unknown mode is a typed error naming the valid ones', (t) => {
  const f = branchShader(12);
  t.throws(() => instrumentModule(f.m, 'bogus' as never), { instanceOf: UnknownInstrumentationModeError, message: /unknown instrumentation mode 'bogus'/ });
});

test('instrumentPipeline numbers the sites of all stage modules in one id space', (t) => {
  const a = branchShader(12);
  const b = bounceLoopShader();
  const meta = instrumentPipeline([a.m, b.m], ['simt', 'its']);
  t.deepEqual(meta.shaders.map((s) => s.name), ['branch.rgen', 'bounce.rgen']);
  t.deepEqual(meta.sites.map((s) => s.id), meta.sites.map((_, i) => i));
  t.deepEqual(meta.modes, ['its', 'simt']);
  for (const m of [a.m, b.m]) t.deepEqual(verifyModule(m), []);
});
