/**
 * The fidelity check of issue 3: SIMT efficiency computed from a `simt` dump, produced by running
 * the instrumented module on the functional core, equals the core's own active-lane counters for
 * the same launch without instrumentation.
 */
import test from 'ava';
import { readDump } from '../../../src/analytics/dump-reader.js';
import { simtEfficiency } from '../../../src/analytics/simt-efficiency.js';
import type { Module } from '../../../src/ir/module.js';
import { instrumentModule } from '../../../src/passes/instrument/instrument-module.js';
import { compileProgram, runFunctional } from '../../../src/sim/functional/index.js';
import { bounceLoopShader, branchShader } from '../../primitives/ir-fixture.js';

function entryOf(m: Module) {
  return m.entryPoints[0]!.function;
}

for (const [name, make] of [['branch 12/20', () => branchShader(12)], ['loop with per-lane trips', () => bounceLoopShader(false)]] as const) {
  test(`fidelity on the functional core: ${name}`, (t) => {
    const plain = make().m;
    const counters = runFunctional(compileProgram(plain), {}, { entry: entryOf(plain), size: [80, 2, 1] });
    const instrumented = make().m;
    const meta = instrumentModule(instrumented, 'simt');
    const data = new Uint8Array(1 << 16);
    const withProbes = runFunctional(compileProgram(instrumented), { buffers: [{ set: 7, binding: 0, data }] }, { entry: entryOf(instrumented), size: [80, 2, 1] });
    const s = simtEfficiency(readDump(data, meta), meta);
    t.is(s.overall.warpInstructions, counters.warpInsts);
    t.is(s.overall.threadInstructions, counters.activeLanes);
    t.is(s.overall.instructionEfficiency, counters.activeLanes / (32 * counters.warpInsts));
    t.is(s.overall.warpExecutions, counters.blockExecutions.reduce((a, b) => a + b, 0));
    t.true(withProbes.warpInsts > counters.warpInsts, 'the probes cost instructions like shader code');
  });
}
