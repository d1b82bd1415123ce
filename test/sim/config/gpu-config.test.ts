import test from 'ava';
import { existsSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { calibrationDir } from '../../../src/sim/workload/load-manifest.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheBytes } from '../../../src/sim/config/cache-config.js';
import { ConfigError } from '../../../src/sim/config/config-error.js';
import { PRESETS, configFromText, loadConfig, presetPath } from '../../../src/sim/config/gpu-config.js';
import { PARAMS } from '../../../src/sim/config/params.js';

test('every parameter has a unit-or-kind, a default and a description', (t) => {
  for (const p of PARAMS) {
    t.truthy(p.description, p.name);
    t.not(p.default, '', p.name);
  }
  // The defaults alone form a valid configuration.
  t.notThrows(() => configFromText(''));
});

test('baseline follows Vulkan-Sim Table III', (t) => {
  const c = loadConfig('baseline');
  t.is(c.numSms, 30);
  t.is(c.registersPerSm, 65536);
  t.is(c.maxWarpsPerSm, 32);
  t.is(c.scheduler, 'gto');
  t.is(cacheBytes(c.l1d), 64 * 1024);
  t.is(c.l1d.sets, 1, 'fully associative');
  t.is(c.l1Latency, 20);
  t.is(cacheBytes(c.l2) * c.numMemChannels * c.subPartitionsPerChannel, 3 * 1024 * 1024);
  t.is(c.l2Latency, 160);
  t.is(cacheBytes(c.il1), 128 * 1024);
  t.is(c.clocks.coreMhz, 1365);
  t.is(c.clocks.dramMhz, 3500);
  t.is(c.rt.maxWarps, 4);
  t.is(c.rt.maxMshr, 64);
});

test('rtx2060 and mobile are Vulkan-Sim\'s own tested-cfgs files, read as they are', (t) => {
  // The calibration data carries Vulkan-Sim's SM75_RTX2060 file too (where it is installed).
  const reference = join(calibrationDir(), 'lumibench-wknd', 'vulkan-sim', 'SM75_RTX2060.gpgpusim.config');
  if (existsSync(reference)) t.is(readFileSync(presetPath('rtx2060'), 'utf8'), readFileSync(reference, 'utf8'));
  else t.log(`not compared with Vulkan-Sim's file: ${reference} not found`);
  const m = loadConfig('mobile');
  // configs/tested-cfgs/MOBILE: 8 SMs, 4 channels x 1 sub-partition, sectored 32 KB L1D, 512 KB L2, BL 8, ratio 2.
  t.is(m.numSms, 8);
  t.is(m.numMemChannels, 4);
  t.is(m.subPartitionsPerChannel, 1);
  t.true(m.l1d.sectored);
  t.is(cacheBytes(m.l1d), 32 * 1024);
  t.is(cacheBytes(m.l2) * m.numMemChannels * m.subPartitionsPerChannel, 512 * 1024);
  t.is(m.dram.burstLength, 8);
  t.is(m.dram.dataCommandRatio, 2);
  t.true(m.perfectInstCache);
  t.is(m.l1Banks.count, 4);
  const r = loadConfig('rtx2060');
  t.is(r.dram.dataCommandRatio, 4);
  t.is(r.dram.burstLength, 16);
  t.is(r.l2.setIndex, 'ipoly');
});

test('predictor follows the intersection-prediction paper Table 2 (2 SMs, 64 warps, 64KB fully associative L1D, 1MB L2)', (t) => {
  const p = loadConfig('predictor');
  t.is(p.numSms, 2);
  t.is(p.maxWarpsPerSm, 64);
  t.is(p.schedulersPerSm, 4);
  t.is(p.scheduler, 'gto');
  t.is(p.registersPerSm, 32768);
  t.is(cacheBytes(p.l1d), 64 * 1024);
  t.is(p.l1d.sets, 1, 'fully associative');
  t.is(p.l1d.replacement, 'lru');
  t.is(cacheBytes(p.l2) * p.numMemChannels * p.subPartitionsPerChannel, 1024 * 1024);
  t.is(p.l2.ways, 16);
  t.deepEqual(p.clocks, { coreMhz: 1365, icntMhz: 1365, l2Mhz: 1365, dramMhz: 3500 });
  t.is(p.dram.queueSize, 64);
  t.is(p.icnt.bufferPackets, 512);
  t.is(p.ejection.clusterBuffer, 32);
  t.is(p.rt.predictor.enabled, false, 'the study turns it on');
});

test('predictor has the paper\'s RT unit (Sec. 5.1): 8 warps, greedy-then-oldest memory scheduling, 8-entry stack, 2-cycle tests', (t) => {
  const p = loadConfig('predictor');
  t.is(p.rt.maxWarps, 8);
  t.is(p.rt.scheduler, 'warp');
  t.is(p.rt.stackEntries, 8);
  t.deepEqual([p.rt.latency[1], p.rt.latency[4], p.rt.latency[5]], [2, 2, 2], 'box test, triangle test, triangle hit');
  t.is(p.rt.threadState, 'interleaved', 'a CUDA kernel: per-thread state in local memory');
});

test('treelet follows the treelet paper Table 1 and rtx2060 Zatel Table II', (t) => {
  const tr = loadConfig('treelet');
  t.is(tr.numSms, 16);
  t.is(tr.maxCtasPerSm, 16);
  t.is(tr.registersPerSm, 32768);
  t.is(cacheBytes(tr.l1d), 16 * 1024);
  t.is(tr.l1Latency, 39);
  t.is(cacheBytes(tr.l2) * tr.numMemChannels * tr.subPartitionsPerChannel, 128 * 1024);
  t.is(tr.l2Latency, 187);
  t.is(tr.rt.maxWarps, 1);
  const z = loadConfig('rtx2060');
  t.is(z.numSms, 30);
  t.is(z.numMemChannels, 12);
  t.is(z.rt.maxWarps, 4);
  t.deepEqual([...PRESETS].sort(), ['baseline', 'mobile', 'predictor', 'rtx2060', 'treelet']);
});

test('overrides apply on top of a preset, and the RT latency list keeps its 7 entries', (t) => {
  const c = loadConfig('mobile', ['gpgpu_rt_max_warps=8', 'gpgpu_rt_intersection_latency=1,2,3,4,5,6,7', 'gpgpu_scheduler=lrr']);
  t.is(c.rt.maxWarps, 8);
  t.deepEqual(c.rt.latency, [1, 2, 3, 4, 5, 6, 7]);
  t.is(c.scheduler, 'lrr');
  t.is(c.raw['gpgpu_rt_max_warps'], '8');
  const e = t.throws(() => loadConfig('mobile', ['gpgpu_rt_intersection_latency=1,2,3']), { instanceOf: ConfigError });
  t.regex(e!.message, /gpgpu_rt_intersection_latency: expects 7/);
  t.throws(() => loadConfig('mobile', ['gpgpu_scheduler=fifo']), { message: /not one of gto, lrr/ });
});

test('a config file path works, and bad values name file:line and key', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vv-cfg-'));
  const good = join(dir, 'gpgpusim.config');
  writeFileSync(good, '-gpgpu_n_clusters 2\n-gpgpu_n_cores_per_cluster 2\n');
  t.is(loadConfig(good).numSms, 4);
  const bad = join(dir, 'bad.config');
  writeFileSync(bad, '# x\n-gpgpu_rt_max_warps four\n');
  const e = t.throws(() => loadConfig(bad), { instanceOf: ConfigError });
  t.is(e!.message, `${bad}:2: gpgpu_rt_max_warps: "four" is not an integer >= 1`);
  t.throws(() => loadConfig('no-such-preset'), { message: /no preset or config file "no-such-preset"/ });
});

test('a Vulkan-Sim style gpgpusim.config reads as it is', (t) => {
  const text = [
    '# functional simulator specification',
    '-gpgpu_ptx_instruction_classification 0',
    '-gpgpu_ptx_sim_mode 0',
    '-gpgpu_n_clusters 30',
    '-gpgpu_n_cores_per_cluster 1',
    '-gpgpu_n_mem 12',
    '-gpgpu_n_sub_partition_per_mchannel 2',
    '-gpgpu_clock_domains 1365.0:1365.0:1365.0:3500.0',
    '-gpgpu_shader_registers 65536',
    '-gpgpu_shader_core_pipeline 1024:32',
    '-gpgpu_shader_cta 32',
    '-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:256:32,16:0,32',
    '-gpgpu_cache:dl2 S:64:128:16,L:B:m:L:P,A:192:4,32:0,32',
    '-gpgpu_dram_timing_opt "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0"',
    '-gpgpu_rt_max_warps 8',
    '-gpgpu_rt_coalesce_warps 1',
    '-gpgpu_scheduler gto',
    '-power_simulation_enabled 0',
  ].join('\n');
  const c = configFromText(text, [], 'gpgpusim.config');
  t.is(c.numSms, 30);
  t.is(c.rt.maxWarps, 8);
  t.true(c.rt.coalesceWarps);
  t.is(c.l1d.write, 'writeThrough');
  t.is(c.ignored.length, 3);
});

test('paper 001 knobs: off by default with the paper\'s values, each one settable, bad values named', (t) => {
  const d = loadConfig('treelet');
  t.false(d.treelet.queues);
  t.false(d.treelet.virtualization);
  t.is(d.treelet.raysPerSm, 4096);
  t.is(d.treelet.l1Fraction, 0.5);
  t.is(d.treelet.queueThreshold, 128);
  t.is(d.treelet.repackThreshold, 22);
  t.is(d.treelet.countTableEntries, 600);
  t.is(d.treelet.queueTableEntries, 128);
  t.is(d.treelet.rayBytes, 32);
  const on = loadConfig('treelet', ['rt_treelet_queues=1', 'rt_ray_virtualization=1', 'rt_treelet_repack_threshold=16', 'rt_treelet_l1_fraction=0.25']);
  t.true(on.treelet.queues && on.treelet.virtualization);
  t.is(on.treelet.repackThreshold, 16);
  t.is(on.treelet.l1Fraction, 0.25);
  t.throws(() => loadConfig('treelet', ['rt_treelet_l1_fraction=1.5']), { message: /rt_treelet_l1_fraction/ });
});

test('int parameters have ranges: a count past its declared max (or any int past 2^31-1) is a ConfigError naming the key', (t) => {
  const e = t.throws(() => loadConfig('baseline', ['gpgpu_n_clusters=1000000000']), { instanceOf: ConfigError });
  t.regex(e!.message, /gpgpu_n_clusters: 1000000000 is over 1024, the largest value vvision accepts for it/);
  t.throws(() => loadConfig('baseline', [`gpgpu_deadlock_window=${2 ** 31}`]), { instanceOf: ConfigError, message: /gpgpu_deadlock_window: 2147483648 is over 2147483647/ });
  t.is(loadConfig('baseline', ['gpgpu_n_clusters=1024']).numSms, 1024);
  // Every declared max admits the default and every preset's value.
  for (const p of PARAMS) if (p.max !== undefined) t.true(Number(p.default) <= p.max, p.name);
  for (const preset of PRESETS) t.notThrows(() => loadConfig(preset), preset);
});

test('a streaming L1D (alloc s) has GPGPU-Sim\'s streaming MSHRs: lines x 4 (x 4 sectors), merging 64', (t) => {
  const r = loadConfig('rtx2060');
  t.is(r.l1d.alloc, 'streaming');
  t.is(r.l1d.mshrEntries, 1 * 512 * 4 * 4);
  t.is(r.l1d.mshrMaxMerge, 64);
  // An on-miss cache keeps the string's figures.
  t.is(r.l2.mshrEntries, 192);
  t.is(r.l2.mshrMaxMerge, 4);
});
