/**
 * Launch bounds (src/sim/workload/launch-limits.ts): the estimate of simulator memory, the
 * 2^30-invocation limit and the memory budget, and prepareRun refusing a launch before it
 * compiles anything (the CLI's `run tri --width 16384 --height 16384` used to die of Node heap
 * exhaustion).
 */
import test from 'ava';
import { prepareRun } from '../../../src/driver/run-workload.js';
import { BYTES_PER_INVOCATION, DEFAULT_MEMORY_BUDGET_BYTES, estimateLaunch, launchProblem, LaunchLimitError } from '../../../src/sim/workload/launch-limits.js';
import type { DescriptorBinding } from '../../../src/sim/workload/manifest.js';

const descriptors: DescriptorBinding[] = [
  { set: 0, binding: 0, kind: 'accelerationStructure' },
  { set: 0, binding: 1, kind: 'storageImage', format: 'rgba32f', role: 'accumulation' },
  { set: 0, binding: 2, kind: 'storageImage', format: 'rgba8', role: 'output' },
];

test('the estimate is per-invocation state plus one texel of each storage image per invocation', (t) => {
  const e = estimateLaunch({ descriptors }, 100, 10, 2);
  t.deepEqual(e, { invocations: 2000, imageBytes: 2000 * 20, stateBytes: 2000 * BYTES_PER_INVOCATION, totalBytes: 2000 * (20 + BYTES_PER_INVOCATION) });
});

test('a launch within the budget passes; past it, the message gives the estimate, the budget and how to raise it', (t) => {
  t.is(launchProblem({ descriptors }, { width: 1024, height: 1024, depth: 1 }, DEFAULT_MEMORY_BUDGET_BYTES, 'w.json: launch'), undefined);
  const p = launchProblem({ descriptors }, { width: 16384, height: 16384, depth: 1 }, DEFAULT_MEMORY_BUDGET_BYTES, '--width/--height');
  t.is(p, '--width/--height: launch 16384x16384 needs about 69.0 GiB to simulate (268435456 invocations x 256 B of simulator state, 5.0 GiB of storage images), over the memory budget of 4.0 GiB; ' +
    "use a smaller launch, or raise the budget with --memory-budget <GiB> (and Node's heap with NODE_OPTIONS=--max-old-space-size=<MiB>)");
  t.regex(launchProblem({ descriptors }, { width: 1 << 16, height: 1 << 15, depth: 1 }, Infinity, 'x')!, /over 1073741824 \(2\^30, Vulkan's maxRayDispatchInvocationCount\)$/);
});

test('prepareRun refuses an over-budget launch before compiling, naming the option it came from', async (t) => {
  const t0 = performance.now();
  const e = await t.throwsAsync(prepareRun('tri', { width: 16384, height: 16384 }), { instanceOf: LaunchLimitError });
  t.regex(e!.message, /^--width\/--height: launch 16384x16384 needs about 65\.0 GiB/);
  const small = await t.throwsAsync(prepareRun('tri', { memoryBudgetBytes: 1000 }), { instanceOf: LaunchLimitError });
  t.regex(small!.message, /workloads\/tri\/workload\.json: launch: launch 64x64 needs about 0\.00 GiB .* over the memory budget of 0\.00 GiB/);
  t.true(performance.now() - t0 < 5000);
});
