/**
 * How the L1D counts an access that merges into a pending MSHR entry (l1-cache.ts, mergeOutcome):
 * GPGPU-Sim's tag probe reports HIT_RESERVED only where the miss reserved the line (allocate on
 * miss); the streaming L1D of Volta / Turing allocates on fill, so the probe finds no line and the
 * merge counts as a miss (SECTOR_MISS) that sends no request.
 */
import test from 'ava';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { AddressMap } from '../../../src/sim/timing/address-map.js';
import { AccessOutcome } from '../../../src/sim/timing/cache.js';
import { FlitCrossbar } from '../../../src/sim/timing/flit-crossbar.js';
import { L1DataCache } from '../../../src/sim/timing/l1-cache.js';
import { type MemClient, ReqKind, ReqSource } from '../../../src/sim/timing/mem-request.js';

const sink: MemClient = { onResponse: () => undefined };

function twoLoadsOfOneSector(overrides: string[]): { l1: L1DataCache; sent: number } {
  const cfg = loadConfig('rtx2060', overrides);
  const l1 = new L1DataCache(cfg, 0, new AddressMap({ channels: 1, subPerChannel: 1, banks: 16, ...cfg.addressMapping }));
  const net = new FlitCrossbar(1, 1, 1, 40, 1);
  for (const tag of [0, 1]) t0(l1.access(0x1000_0000, 32, ReqKind.Load, ReqSource.Shader, { client: sink, tag }, tag));
  for (let now = 0; now < 8; now++) l1.cycle(now, net);
  let sent = 0;
  for (let now = 0; now < 64; now++) if (net.receive(0, now)) sent++;
  return { l1, sent };
}
function t0(taken: boolean): void {
  if (!taken) throw new Error('the L1 refused a load');
}

test('the streaming L1D (SM75 file, alloc s) counts a merge as a sector miss; one request goes out', (t) => {
  const { l1, sent } = twoLoadsOfOneSector([]);
  const s = l1.cache.stats;
  t.is(s.get(ReqSource.Shader, AccessOutcome.HitReserved), 0);
  t.is(s.get(ReqSource.Shader, AccessOutcome.MissSector) + s.get(ReqSource.Shader, AccessOutcome.MissCompulsory), 2);
  t.is(s.misses(), 2);
  t.is(sent, 1);
});

test('an allocate-on-miss L1D counts the same merge as a pending hit (HIT_RESERVED)', (t) => {
  const { l1, sent } = twoLoadsOfOneSector(['gpgpu_cache:dl1=S:4:128:64,L:L:m:N:L,A:256:8,16:0,32']);
  const s = l1.cache.stats;
  t.is(s.get(ReqSource.Shader, AccessOutcome.HitReserved), 1);
  t.is(s.misses(), 1);
  t.is(s.accesses(), 2);
  t.is(sent, 1);
});
