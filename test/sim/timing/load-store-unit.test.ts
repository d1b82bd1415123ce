import test from 'ava';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { AddressMap } from '../../../src/sim/timing/address-map.js';
import { L1DataCache } from '../../../src/sim/timing/l1-cache.js';
import { LOAD_SLOTS, type LdstCounters, LoadStoreUnit } from '../../../src/sim/timing/load-store-unit.js';
import type { MemClient, Waiter } from '../../../src/sim/timing/mem-request.js';
import type { MemAccess, WarpStep } from '../../../src/sim/warp-step.js';
import { OpClass } from '../../../src/sim/warp-step.js';

const FULL = 0xffffffff | 0;

/** A step of `n` memory instructions, each a 32-lane access of 4-byte words `stride` bytes apart from base + 4096 * i. */
function memStep(n: number, stride: number, kind: MemAccess['kind'] = 'load'): WarpStep {
  const memory: MemAccess[] = [];
  for (let i = 0; i < n; i++) {
    const addresses = new Float64Array(32);
    for (let l = 0; l < 32; l++) addresses[l] = 0x1000_0000 + 4096 * i + stride * l;
    memory.push({ instIndex: i, kind, space: 'global', size: 4, addresses, laneMask: FULL, wordMask: -1 });
  }
  return { fn: 0, block: 0, activeMask: FULL, insts: n, opClasses: new Uint8Array(n).fill(OpClass.Memory), memory, done: false, warp: 0 } as WarpStep;
}

function unit(overrides: string[] = []): { lsu: LoadStoreUnit; counters: LdstCounters; responses: Waiter[] } {
  const cfg = loadConfig('rtx2060', overrides);
  const l1 = new L1DataCache(cfg, 0, new AddressMap({ channels: 1, subPerChannel: 1, banks: 16, ...cfg.addressMapping }));
  const responses: Waiter[] = [];
  const client: MemClient = { onResponse: (w) => void responses.push(w) };
  const counters: LdstCounters = { l1BankConflicts: 0, ldstStallCycles: 0, loadThreads: 0, storeThreads: 0 };
  return { lsu: new LoadStoreUnit(cfg, l1, client, 4, counters), counters, responses };
}

test('thread loads and stores count one per lane and 32-bit component (NIR-to-PTX scalarises), an image access one per lane', (t) => {
  const { lsu, counters } = unit();
  const step = memStep(3, 16, 'store');
  step.memory[0]!.size = 16;
  step.memory[1]!.size = 16;
  step.memory[1]!.space = 'texture';
  lsu.hold(1, step, 0);
  t.true(lsu.send(1, step, 0));
  t.is(counters.storeThreads, 32 * 4, 'a vec4 store: four st per lane');
  t.true(lsu.send(1, step, 1));
  t.is(counters.storeThreads, 32 * 4 + 32, 'an image store: one per lane');
});

test('a coalesced load takes one load slot of its context, with one response per sector', (t) => {
  const { lsu, counters } = unit();
  const step = memStep(2, 4);
  lsu.hold(1, step, 0);
  t.true(lsu.send(1, step, 0));
  // 32 consecutive words: one 128-byte line, four sectors.
  t.is(lsu.queued, 4);
  t.is(lsu.responses, 4);
  t.is(lsu.loadSlot, 1 * LOAD_SLOTS);
  t.is(counters.loadThreads, 32);
  t.is(lsu.memoryIndex(1), 1);
  // An instruction without accesses of its own goes without taking anything.
  t.true(lsu.send(1, step, 5));
  t.is(lsu.loadSlot, -1);
  t.is(lsu.queued, 4);
});

test('the last response of a load frees its slot; the ones before do not', (t) => {
  const { lsu } = unit();
  const step = memStep(1, 4);
  lsu.hold(0, step, 0);
  t.true(lsu.send(0, step, 0));
  const slot = lsu.loadSlot;
  for (let k = 0; k < 3; k++) t.false(lsu.responseArrived(slot));
  t.true(lsu.responseArrived(slot));
  t.is(lsu.loadStep(slot), step);
  t.is(lsu.loadInst(slot), 0);
  lsu.release(slot);
  t.is(lsu.loadStep(slot), null);
});

test('a context with every load slot in flight is refused, with nothing queued or counted', (t) => {
  const { lsu, counters } = unit(['gpgpu_ldst_queue_size=4096']);
  const step = memStep(LOAD_SLOTS + 1, 4);
  lsu.hold(2, step, 0);
  for (let i = 0; i < LOAD_SLOTS; i++) t.true(lsu.send(2, step, i));
  const queued = lsu.queued;
  const threads = counters.loadThreads;
  t.false(lsu.send(2, step, LOAD_SLOTS));
  // No queue length lets it in: it waits for a load's last response.
  t.is(lsu.fitsAtQueued, -1);
  t.is(lsu.queued, queued);
  t.is(counters.loadThreads, threads);
  t.is(lsu.memoryIndex(2), LOAD_SLOTS);
});

test('an instruction that does not fit the queue is refused, unless the queue is empty', (t) => {
  const { lsu } = unit(['gpgpu_ldst_queue_size=40']);
  // 32 lanes 128 bytes apart: 32 lines, one sector each; the queue holds 40.
  const step = memStep(3, 128, 'store');
  lsu.hold(0, step, 0);
  t.true(lsu.send(0, step, 0));
  t.is(lsu.queued, 32);
  t.false(lsu.send(0, step, 1));
  t.is(lsu.queued, 32);
  t.is(lsu.memoryIndex(0), 1);
  // Its 32 requests fit once at most 8 are queued.
  t.is(lsu.fitsAtQueued, 8);
  // Drained, the queue takes it; one wider than the whole queue also goes when it is empty.
  const wide = unit(['gpgpu_ldst_queue_size=16']).lsu;
  wide.hold(0, step, 0);
  t.true(wide.send(0, step, 0));
  t.is(wide.queued, 32);
  // Refused on the lower bound (one request per access) before its requests are counted.
  t.false(wide.send(0, step, 1));
  t.is(wide.fitsAtQueued, 15);
  // Counted, more than the whole queue: it goes once the queue is empty.
  for (let now = 0; wide.queued > 15; now++) wide.cycle(now);
  t.false(wide.send(0, step, 1));
  t.is(wide.fitsAtQueued, 0);
});

test('queued requests leave for the L1D from the cycle the issue stage gives, not before', (t) => {
  const { lsu } = unit();
  const step = memStep(1, 4, 'store');
  lsu.hold(0, step, 0);
  t.true(lsu.send(0, step, 0));
  lsu.readyFrom(0, 10);
  for (let now = 0; now < 10; now++) t.is(lsu.cycle(now), 0);
  t.true(lsu.cycle(10) > 0);
});

test('a cycle that ends with a ready access still queued is an LD/ST stall (gpgpu_n_stall_shd_mem); waiting for the issue stage is not', (t) => {
  const { lsu, counters } = unit();
  // Four sectors of one line fall in the four L1D banks: they all enter in one cycle.
  const coalesced = memStep(1, 4);
  lsu.hold(0, coalesced, 0);
  t.true(lsu.send(0, coalesced, 0));
  lsu.readyFrom(0, 5);
  for (let now = 0; now < 5; now++) lsu.cycle(now);
  t.is(counters.ldstStallCycles, 0, 'queued before the issue stage lets them go: no stall');
  t.is(lsu.cycle(5), 4);
  t.is(counters.ldstStallCycles, 0);
  // 32 lines 128 bytes apart all map to bank 0: one access a cycle, 32 cycles, the first 31 stalls.
  const strided = memStep(1, 128, 'store');
  lsu.hold(1, strided, 0);
  t.true(lsu.send(1, strided, 0));
  lsu.readyFrom(0, 100);
  let now = 100;
  while (lsu.queued > 0) lsu.cycle(now++);
  t.is(now - 100, 32);
  t.is(counters.ldstStallCycles, 31);
  t.is(counters.l1BankConflicts, 31);
});

test('one instruction a cycle enters the L1D pipelines, even when the next one would find its bank free (GPGPU-Sim serves only the dispatch register)', (t) => {
  const { lsu, counters } = unit();
  // Two loads, each of one sector, in banks 0 and 1.
  const step = memStep(2, 0);
  step.memory[1]!.addresses.fill(0x1000_0000 + 32);
  lsu.hold(0, step, 0);
  t.true(lsu.send(0, step, 0));
  lsu.readyFrom(0, 3);
  t.true(lsu.send(0, step, 1));
  lsu.readyFrom(1, 3);
  t.is(lsu.queued, 2);
  t.is(lsu.cycle(3), 1, 'the second instruction waits for the next cycle');
  t.is(counters.ldstStallCycles, 1, 'and that cycle ends with a ready access queued');
  t.is(counters.l1BankConflicts, 0, 'without a bank conflict');
  t.is(lsu.cycle(4), 1);
  t.is(lsu.queued, 0);
});
