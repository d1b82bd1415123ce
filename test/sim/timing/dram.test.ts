import test from 'ava';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { type AddressMap, bankOf, channelOf, rowOf } from '../../../src/sim/timing/address-map.js';
import { DramChannel } from '../../../src/sim/timing/dram.js';
import { type MemRequest, ReqKind } from '../../../src/sim/timing/mem-request.js';

const cfg = loadConfig('mobile', ['gpgpu_n_mem=1']);
const map: AddressMap = { channels: 1, subPerChannel: 2, banks: cfg.dram.nbk, rowBytes: cfg.dram.rowBytes };
const req = (addr: number, kind = ReqKind.Load): MemRequest => ({ addr, bytes: 128, kind, source: 0, sm: 0, subPartition: 0, waiters: null, sentAt: 0, words: 0xffffffff });

/** Runs the channel until every read returned; returns return cycles by address. */
function drain(ch: DramChannel, reqs: MemRequest[]): Map<number, number> {
  for (const r of reqs) if (!ch.tryPush(r, 0)) throw new Error('queue full');
  const back = new Map<number, number>();
  for (let now = 0; now < 100000 && !ch.idle(); now++) {
    ch.cycle(now);
    for (let r = ch.popReturn(now); r; r = ch.popReturn(now)) back.set(r.addr, now);
  }
  return back;
}

test('addresses in one row of a bank share bank and row; the next row differs', (t) => {
  const a = 0;
  const sameRow = 256 * map.banks; // next chunk of the same bank
  t.is(bankOf(map, a), bankOf(map, sameRow));
  t.is(rowOf(map, a), rowOf(map, sameRow));
  const nextRow = 256 * map.banks * (map.rowBytes / 256);
  t.is(bankOf(map, a), bankOf(map, nextRow));
  t.not(rowOf(map, a), rowOf(map, nextRow));
  t.is(channelOf({ ...map, channels: 4 }, 256), 1);
});

test('a row hit returns sooner than a row conflict', (t) => {
  const nextRow = 256 * map.banks * (map.rowBytes / 256);
  const hit = drain(new DramChannel(cfg, map), [req(0), req(256 * map.banks)]);
  const conflict = drain(new DramChannel(cfg, map), [req(0), req(nextRow)]);
  t.true(hit.get(256 * map.banks)! < conflict.get(nextRow)!);
});

test('FR-FCFS serves a younger row hit before an older row conflict; FIFO does not', (t) => {
  const nextRow = 256 * map.banks * (map.rowBytes / 256);
  const younger = 256 * map.banks;
  const fr = drain(new DramChannel(cfg, map), [req(0), req(nextRow), req(younger)]);
  t.true(fr.get(younger)! < fr.get(nextRow)!);
  const fifoCfg = loadConfig('mobile', ['gpgpu_n_mem=1', 'gpgpu_dram_scheduler=0']);
  const fifo = drain(new DramChannel(fifoCfg, map), [req(0), req(nextRow), req(younger)]);
  t.true(fifo.get(younger)! > fifo.get(nextRow)!);
});

test('efficiency and utilisation: bus busy cycles over pending and total cycles', (t) => {
  const ch = new DramChannel(cfg, map);
  // 16 consecutive chunks of bank 0: two rows of 8 chunks each.
  const back = drain(ch, Array.from({ length: 16 }, (_, i) => req(i * 256 * map.banks)));
  t.is(back.size, 16);
  const s = ch.stats;
  const r = cfg.clocks.coreMhz / cfg.clocks.dramMhz;
  t.true(Math.abs(s.busBusy - 16 * (128 / (cfg.dram.busBytesPerChip * cfg.dram.chipsPerChannel)) * r) < 1e-9);
  t.true(s.pendingCycles >= s.busBusy);
  t.is(s.rowHits, 14);
  t.is(s.rowMisses, 2);
  t.is(s.writes, 0);
});

test('writes occupy the bus but return nothing', (t) => {
  const ch = new DramChannel(cfg, map);
  const back = drain(ch, [req(0, ReqKind.Store)]);
  t.is(back.size, 0);
  t.is(ch.stats.writes, 1);
  t.true(ch.stats.busBusy > 0);
});
