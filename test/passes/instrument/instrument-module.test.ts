import test from 'ava';
import { divergenceCharacterization } from '../../../src/analytics/divergence-characterization.js';
import { readDump } from '../../../src/analytics/dump-reader.js';
import { itsEvidence } from '../../../src/analytics/its-evidence.js';
import { lifetimes } from '../../../src/analytics/lifetimes.js';
import { simtEfficiency } from '../../../src/analytics/simt-efficiency.js';
import { threadCompaction } from '../../../src/analytics/thread-compaction.js';
import { threadPaths } from '../../../src/analytics/thread-paths.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { INSTRUMENTATION_MODES } from '../../../src/primitives/buffer-layout.js';
import { AlreadyInstrumentedError, instrumentModule } from '../../../src/passes/instrument/instrument-module.js';
import { emptyMetadata } from '../../../src/primitives/buffer-layout.js';
import { bounceLoopShader, branchShader, earlyReturnShader } from '../../primitives/ir-fixture.js';
import { bytesOf, runLaunch } from './run-instrumented.js';

test('all modes on one module: each execution point has one site, and every analysis matches its single-mode run', (t) => {
  const all = bounceLoopShader();
  const meta = instrumentModule(all.m, INSTRUMENTATION_MODES);
  t.deepEqual(verifyModule(all.m), []);
  t.deepEqual(meta.modes, ['divergence', 'paths', 'its', 'simt', 'trace']);
  const count = (k: string) => meta.sites.filter((s) => s.kind === k).length;
  t.is(count('warpId'), 1);
  t.is(count('pipelineEntry'), 1);
  t.is(count('shaderEntry'), 1);
  t.is(count('block'), 4);
  t.is(count('preTraceRay'), 1);
  const dump = readDump(bytesOf(runLaunch(all.m, 64)), meta);

  const single = (mode: (typeof INSTRUMENTATION_MODES)[number]) => {
    const f = bounceLoopShader();
    const m = instrumentModule(f.m, mode);
    return { meta: m, dump: readDump(bytesOf(runLaunch(f.m, 64)), m) };
  };
  const simt = single('simt');
  t.deepEqual(simtEfficiency(dump, meta).overall, simtEfficiency(simt.dump, simt.meta).overall);
  const paths = single('paths');
  t.deepEqual(threadPaths(dump, meta), threadPaths(paths.dump, paths.meta));
  t.deepEqual(threadCompaction(dump, meta), threadCompaction(paths.dump, paths.meta));
  const trace = single('trace');
  t.deepEqual(lifetimes(dump, meta).thread, lifetimes(trace.dump, trace.meta).thread);
  t.deepEqual(itsEvidence(dump, meta), { entryExecutions: 2, exitExecutions: 2, exitPerEntry: 1 });
});

test('instrumenting the same module again continues from the original program', (t) => {
  const f = branchShader(12);
  const meta = emptyMetadata();
  instrumentModule(f.m, 'simt', { metadata: meta });
  const simtSites = meta.sites.length;
  instrumentModule(f.m, 'divergence', { metadata: meta });
  t.deepEqual(verifyModule(f.m), []);
  t.is(meta.shaders.length, 1, 'the shader is not added twice');
  // The entry block ballot is relabelled, not duplicated; divergence adds only its CreateWarpId.
  t.is(meta.sites.length, simtSites + 1);
  t.is(meta.sites[0]!.kind, 'shaderEntry');
  t.throws(() => instrumentModule(f.m, 'its', { metadata: emptyMetadata() }), { instanceOf: AlreadyInstrumentedError });
});

test('its first, then divergence and paths: early returns are still found after the exit was unified', (t) => {
  const f = earlyReturnShader();
  const meta = emptyMetadata();
  instrumentModule(f.m, 'its', { metadata: meta });
  instrumentModule(f.m, 'divergence', { metadata: meta });
  instrumentModule(f.m, 'paths', { metadata: meta });
  instrumentModule(f.m, 'its', { metadata: meta });
  t.deepEqual(verifyModule(f.m), []);
  const count = (k: string) => meta.sites.filter((s) => s.kind === k).length;
  t.deepEqual([count('pipelineEntry'), count('pipelineExit'), count('earlyReturn'), count('warpId')], [1, 1, 1, 1]);
  const dump = readDump(bytesOf(runLaunch(f.m, 64)), meta);
  t.deepEqual(itsEvidence(dump, meta), { entryExecutions: 2, exitExecutions: 2, exitPerEntry: 1 });
  const alone = earlyReturnShader();
  const aloneMeta = instrumentModule(alone.m, 'divergence');
  t.deepEqual(
    divergenceCharacterization(dump, meta),
    divergenceCharacterization(readDump(bytesOf(runLaunch(alone.m, 64)), aloneMeta), aloneMeta),
  );
});
