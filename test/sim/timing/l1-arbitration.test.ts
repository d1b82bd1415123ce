/**
 * The L1D's miss path is shared by the LD/ST unit and the RT unit (l1-cache.ts). Issue 26.6: the
 * SM ticks the RT unit before the L1 sends a miss (freeing a miss-queue entry) and the LD/ST unit
 * after, so while shader warps kept the LD/ST queue busy every freed entry went to a shader access
 * and the RT unit's intersection-table store (pt, rtx2060, 256x256 2 spp) or node chunk (the
 * LumiBench frame) waited 37,000 to 50,000+ cycles. These tests replay that tick order on the L1
 * alone.
 */
import test from 'ava';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { AddressMap } from '../../../src/sim/timing/address-map.js';
import { FlitCrossbar } from '../../../src/sim/timing/flit-crossbar.js';
import { L1DataCache } from '../../../src/sim/timing/l1-cache.js';
import { type MemClient, ReqKind, ReqSource, type Waiter } from '../../../src/sim/timing/mem-request.js';

const MAP = new AddressMap({ channels: 1, subPerChannel: 1, banks: 16, ...loadConfig('rtx2060').addressMapping });
const sink: MemClient = { onResponse: () => undefined };
const waiter = (tag: number): Waiter => ({ client: sink, tag });

/**
 * Runs `cycles` cycles of an L1 whose interconnect takes one packet every `drainEvery` cycles.
 * Each cycle, in the SM's order: the RT unit retries its access (a store, or a load miss) while it
 * has one, the L1 sends its miss-queue head, then the LD/ST unit sends fresh load misses as long as
 * the L1 takes them (`shaderBusy`: it always has one). Returns the cycle the RT access was taken
 * (-1: never) and how many shader accesses were taken.
 */
function contend(opts: { rtKind: ReqKind | null; rtFrom: number; shaderBusy: boolean; cycles: number; drainEvery: number }): { rtAt: number; shaderTaken: number } {
  const cfg = loadConfig('rtx2060');
  const l1 = new L1DataCache(cfg, 0, MAP);
  const net = new FlitCrossbar(1, 1, 1, 40, 1);
  let rtAt = -1;
  let shaderTaken = 0;
  let nextLine = 0;
  for (let now = 0; now < opts.cycles; now++) {
    if (now % opts.drainEvery === 0) net.receive(0, now);
    if (opts.rtKind !== null && rtAt < 0 && now >= opts.rtFrom) {
      const addr = 0x8000_0000;
      if (l1.access(addr, 32, opts.rtKind, ReqSource.Rt, waiter(-1), now, false, 0xff)) rtAt = now;
    }
    l1.cycle(now, net);
    if (opts.shaderBusy) {
      while (l1.access(0x1000_0000 + 128 * nextLine, 128, ReqKind.Load, ReqSource.Shader, waiter(nextLine), now)) {
        nextLine++;
        shaderTaken++;
      }
    }
  }
  return { rtAt, shaderTaken };
}

for (const [name, kind] of [['store (intersection table)', ReqKind.Store], ['load miss (node chunk)', ReqKind.Load]] as const) {
  test(`an RT ${name} refused by a full miss queue gets the next freed entry although the LD/ST unit keeps it full`, (t) => {
    // The queue fills in the first cycle; from cycle 100 the RT unit wants one entry.
    const r = contend({ rtKind: kind, rtFrom: 100, shaderBusy: true, cycles: 400, drainEvery: 4 });
    t.not(r.rtAt, -1, 'the RT access was taken before the LD/ST unit ran out of accesses');
    t.true(r.rtAt >= 100);
    // One entry frees every 4 cycles; the RT unit claims the first one and takes it the cycle after.
    t.true(r.rtAt <= 100 + 4 + 1, `RT access taken at cycle ${r.rtAt}`);
  });
}

test('the LD/ST unit is not slowed while the RT unit does not wait, and alternates with it when it does', (t) => {
  const alone = contend({ rtKind: null, rtFrom: 0, shaderBusy: true, cycles: 400, drainEvery: 4 });
  const shared = contend({ rtKind: ReqKind.Store, rtFrom: 100, shaderBusy: true, cycles: 400, drainEvery: 4 });
  // 16 entries at once; the first miss leaves the cycle after it entered (cycle 1), then one per
  // drained packet (cycles 4, 8, ..., 396).
  t.is(alone.shaderTaken, 16 + 1 + (400 - 4) / 4);
  t.is(shared.shaderTaken, alone.shaderTaken - 1, 'exactly one entry went to the RT unit');
});

test('an RT access that is not refused leaves no claim behind', (t) => {
  // The RT store comes while the queue has room (the shader side is idle): nothing is claimed, and
  // a shader access in the same cycle still goes.
  const cfg = loadConfig('rtx2060');
  const l1 = new L1DataCache(cfg, 0, MAP);
  t.true(l1.access(0x8000_0000, 32, ReqKind.Store, ReqSource.Rt, null, 0, false, 0xff));
  t.true(l1.access(0x1000_0000, 128, ReqKind.Load, ReqSource.Shader, waiter(0), 0));
});
