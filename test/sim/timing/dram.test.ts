import test from 'ava';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { AddressMap } from '../../../src/sim/timing/address-map.js';
import { DramChannel } from '../../../src/sim/timing/dram.js';
import { type MemRequest, ReqKind } from '../../../src/sim/timing/mem-request.js';

// One channel of the RTX 2060 memory system (its mapping string, 16 banks in 4 groups).
const cfg = loadConfig('rtx2060', ['gpgpu_n_mem=1']);
const map = new AddressMap({ channels: 1, subPerChannel: 2, banks: cfg.dram.nbk, ...cfg.addressMapping });
const req = (addr: number, kind = ReqKind.Load, bytes = 32): MemRequest => ({ line: map.sectors.idOf(addr), bytes, kind, source: 0, sm: 0, subPartition: 0, waiters: null, sentAt: 0, createdAt: 0, returnAt: 0, uncached: false, mshrKey: -1, words: 0xff });

/** The first 32 B-aligned address after `from` whose decoding satisfies `pred`. */
function find(pred: (a: ReturnType<AddressMap['decode']>) => boolean, from = 0): number {
  for (let a = from; a < 2 ** 30; a += 32) if (pred(map.decode(a))) return a;
  throw new Error('not found');
}

/** Runs the channel until every read returned; returns return cycles by address. */
function drain(ch: DramChannel, reqs: MemRequest[]): Map<number, number> {
  for (const r of reqs) if (!ch.tryPush(r, 0)) throw new Error('queue full');
  const back = new Map<number, number>();
  for (let now = 0; now < 1_000_000 && !ch.idle(); now++) {
    ch.cycle(now);
    for (let r = ch.popReturn(now); r; r = ch.popReturn(now)) back.set(map.sectors.addressOf(r.line), now);
  }
  return back;
}

const a0 = map.decode(0);
const sameRow = find((d) => d.bank === a0.bank && d.row === a0.row && d.col !== a0.col, 32);
const otherRow = find((d) => d.bank === a0.bank && d.row !== a0.row);

test('a row hit returns sooner than a row conflict', (t) => {
  const hit = drain(new DramChannel(cfg, map), [req(0), req(sameRow)]);
  const conflict = drain(new DramChannel(cfg, map), [req(0), req(otherRow)]);
  t.true(hit.get(sameRow)! < conflict.get(otherRow)!);
});

test('FR-FCFS serves a younger row hit before an older row conflict; FIFO does not', (t) => {
  const fr = drain(new DramChannel(cfg, map), [req(0), req(otherRow), req(sameRow)]);
  t.true(fr.get(sameRow)! < fr.get(otherRow)!);
  const fifoCfg = loadConfig('rtx2060', ['gpgpu_n_mem=1', 'gpgpu_dram_scheduler=0']);
  const fifo = drain(new DramChannel(fifoCfg, map), [req(0), req(otherRow), req(sameRow)]);
  t.true(fifo.get(sameRow)! > fifo.get(otherRow)!);
});

test('an atom is burst x bus width x chips bytes; a 128 B request takes four column commands', (t) => {
  const ch = new DramChannel(cfg, map);
  t.is(ch.atomSize, cfg.dram.burstLength * cfg.dram.busBytesPerChip * cfg.dram.chipsPerChannel);
  t.is(ch.atomSize, 32);
  drain(ch, [req(0, ReqKind.Load, 128)]);
  t.is(ch.stats.columnCommands, 4);
  t.is(ch.stats.activates, 1);
});

test('streaming row hits move one atom per max(tCCD, tCCDL) DRAM clocks across bank groups', (t) => {
  // 64 sectors spread over banks of all groups, all row hits after the first activate per bank.
  const addrs: number[] = [];
  for (let a = 0; addrs.length < 64; a += 32) addrs.push(a);
  const ch = new DramChannel(cfg, map);
  const back = drain(ch, addrs.map((a) => req(a)));
  t.is(back.size, 64);
  const r = cfg.clocks.coreMhz / cfg.clocks.dramMhz;
  const s = ch.stats;
  t.is(s.columnCommands, 64);
  const burst = Math.floor(cfg.dram.burstLength / cfg.dram.dataCommandRatio);
  t.true(Math.abs(s.busBusy - 64 * burst * r) < 1e-9, 'bwutil counts BL / ratio per column command');
  // The last data is back no sooner than 63 x tCCD after the first column command.
  const last = Math.max(...back.values());
  t.true(last >= 63 * cfg.dram.CCD * r);
  // And, once the rows are open, not much later: the channel sustains the configured rate.
  t.true(last <= 63 * Math.max(cfg.dram.CCD, cfg.dram.CCDL) * r + (cfg.dram.RCD + cfg.dram.CL) * r + cfg.dram.returnLatency + 16 * cfg.dram.RRD * r + 2);
});

test('bwutil counts BL / data_command_freq_ratio per column command; the rate is set by tCCD', (t) => {
  const run = (ratio: number, ccd: number): { busy: number; last: number } => {
    const c = loadConfig('rtx2060', ['gpgpu_n_mem=1', `dram_data_command_freq_ratio=${ratio}`, `gpgpu_dram_timing_opt=nbk=16:CCD=${ccd}:RRD=1:RCD=20:RAS=50:RP=20:RC=62:CL=20:WL=8:CDLR=9:WR=20:nbkgrp=1:CCDL=0:RTPL=0`]);
    const ch = new DramChannel(c, map);
    const back = drain(ch, Array.from({ length: 64 }, (_, i) => req(i * 32)));
    return { busy: ch.stats.busBusy, last: Math.max(...back.values()) };
  };
  t.true(Math.abs(run(1, 4).busy / run(4, 4).busy - 4) < 1e-9);
  const slow = run(4, 8).last;
  const fast = run(4, 4).last;
  t.true(slow > 1.7 * fast - 200, `${slow} vs ${fast}`);
});

test('writes use column commands but return nothing', (t) => {
  const ch = new DramChannel(cfg, map);
  const back = drain(ch, [req(0, ReqKind.Store)]);
  t.is(back.size, 0);
  t.is(ch.stats.writes, 1);
  t.is(ch.stats.columnCommands, 1);
});

test('a full return queue stops the column commands until the partition takes a read (dram_t::cycle returnq)', (t) => {
  const oneCfg = loadConfig('rtx2060', ['gpgpu_n_mem=1', 'gpgpu_dram_return_queue_size=1']);
  const ch = new DramChannel(oneCfg, map);
  const writesDone: number[] = [];
  t.true(ch.tryPush(req(0), 0));
  let now = 0;
  for (; ch.peekReturn(now) === undefined; now++) ch.cycle(now);
  // The first read is back and nobody takes it: the queue (1) is full, the next read waits.
  t.true(ch.tryPush(req(sameRow), now));
  for (const end = now + 2000; now < end; now++) ch.cycle(now);
  t.is(ch.stats.columnCommands, 1);
  t.not(ch.popReturn(now), undefined);
  for (const end = now + 2000; now < end; now++) ch.cycle(now);
  t.is(ch.stats.columnCommands, 2, 'taking the read frees the queue');
  // Unlimited (the default 0): both issue at once.
  const free = new DramChannel(loadConfig('rtx2060', ['gpgpu_n_mem=1', 'gpgpu_dram_return_queue_size=0']), map, (s) => writesDone.push(s));
  free.tryPush(req(0), 0);
  free.tryPush(req(sameRow), 0);
  free.tryPush(req(otherRow, ReqKind.Store), 0);
  for (let now = 0; now < 4000; now++) free.cycle(now);
  t.is(free.stats.columnCommands, 3);
  t.deepEqual(writesDone, [0], 'the completed write hands its sub-partition back for its credit');
});
