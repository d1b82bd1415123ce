import test from 'ava';
import { readDump } from '../../src/analytics/dump-reader.js';
import { itsEvidence } from '../../src/analytics/its-evidence.js';
import { DumpWriter, FixtureMeta, FULL, lanes } from './dump-fixture.js';

function run(exits: number[][]) {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const entry = f.site({ kind: 'pipelineEntry', shader: rg });
  const exit = f.site({ kind: 'pipelineExit', shader: rg });
  const w = new DumpWriter(f.meta);
  exits.forEach((masks, k) => {
    w.warpBallot(k * 32, FULL, entry);
    for (const m of masks) w.warpBallot(k * 32, m, exit);
  });
  return itsEvidence(readDump(w.bytes(), f.meta), f.meta);
}

test('SIMT stack: each warp exits once, ratio 1', (t) => {
  t.deepEqual(run([[FULL], [FULL]]), { entryExecutions: 2, exitExecutions: 2, exitPerEntry: 1 });
});

test('split warps exit several times (Fig. 11)', (t) => {
  const r = run([[lanes(0, 16), lanes(16, 32)], [FULL]]);
  t.is(r.exitExecutions, 3);
  t.is(r.exitPerEntry, 1.5);
});
