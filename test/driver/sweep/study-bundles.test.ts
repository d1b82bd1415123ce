import test from 'ava';
import { parseVary, sweepPoints } from '../../../src/driver/sweep/sweep-grid.js';
import { PREDICTOR_STUDY, STUDY_BUNDLES, TREELET_STUDY } from '../../../src/driver/sweep/study-bundles.js';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';

test('every study bundle is a valid set of knobs on every preset', (t) => {
  for (const [knob, bundles] of Object.entries(STUDY_BUNDLES)) {
    for (const [name, b] of Object.entries(bundles)) {
      for (const preset of ['mobile', 'baseline']) t.notThrows(() => loadConfig(preset, b.overrides), `${knob}=${name} on ${preset}`);
    }
  }
});

test('predictor bundles: baseline off, default without repacking, repack-4 with four extra warps, oracles named', (t) => {
  const cfg = (name: string) => loadConfig('mobile', STUDY_BUNDLES.predictor![name]!.overrides).rt.predictor;
  t.false(cfg('baseline').enabled);
  t.true(cfg('default').enabled);
  t.false(cfg('default').repack);
  t.true(cfg('repack').repack);
  t.is(cfg('repack').extraWarps, 0);
  t.is(cfg('repack-4').extraWarps, 4);
  t.is(cfg('oracle-lookup').oracle, 'lookup');
  t.is(cfg('oracle-training').oracle, 'training');
  t.is(cfg('oracle-update').oracle, 'update');
  const dim = parseVary(`predictor=${PREDICTOR_STUDY.join(',')}`);
  t.is(sweepPoints([dim], 'mobile', []).length, PREDICTOR_STUDY.length);
  t.throws(() => parseVary('predictor=repack,perfect'), { message: /unknown predictor study 'perfect'/ });
});

test('treelet bundles (paper 001): baseline off, virtualization alone, naive without grouping, repack thresholds', (t) => {
  const cfg = (name: string) => loadConfig('treelet', STUDY_BUNDLES.treelets![name]!.overrides).treelet;
  t.false(cfg('baseline').queues || cfg('baseline').virtualization);
  t.true(cfg('virtualization').virtualization && !cfg('virtualization').queues);
  t.false(cfg('naive').groupUnderpopulated);
  t.is(cfg('no-repack').repackThreshold, 0);
  t.is(cfg('repack-16').repackThreshold, 16);
  t.is(cfg('repack-22').repackThreshold, 22);
  t.is(cfg('free-state').savedRegisters, 1);
  t.is(sweepPoints([parseVary(`treelets=${TREELET_STUDY.join(',')}`)], 'treelet', []).length, TREELET_STUDY.length);
});
