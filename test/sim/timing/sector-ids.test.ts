import test from 'ava';
import { SectorIds } from '../../../src/sim/timing/sector-ids.js';
import { LOCAL_BASE, TRAVERSAL_DATA_BASE } from '../../../src/sim/warp-step.js';
import { RT_HIT_STORE_BASE } from '../../../src/sim/timing/rt-thread-state.js';
import { seededRandom } from '../../../src/sim/seeded-random.js';

test('ids are small integers that give back every address rounded down to its 32-byte sector', (t) => {
  const ids = new SectorIds();
  const rand = seededRandom(3);
  const seen = new Map<number, number>();
  for (let k = 0; k < 50000; k++) {
    const base = [0, 2 ** 36, LOCAL_BASE, TRAVERSAL_DATA_BASE, RT_HIT_STORE_BASE, 2 ** 52][Math.floor(rand() * 6)]!;
    const addr = base + Math.floor(rand() * 2 ** 24);
    const id = ids.idOf(addr);
    if (!Number.isInteger(id) || id < 0 || id >= 2 ** 30) return t.fail(`id ${id} of ${addr}`);
    const sector = addr - (addr % 32);
    if (ids.addressOf(id) !== sector) return t.fail(`${addr}: id ${id} gives ${ids.addressOf(id)}`);
    const other = seen.get(id);
    if (other !== undefined && other !== sector) return t.fail(`sectors ${other} and ${sector} share id ${id}`);
    seen.set(id, sector);
  }
  t.pass();
});

test('the sectors of a 128-byte line are four consecutive ids from a multiple of 4', (t) => {
  const ids = new SectorIds();
  const line = LOCAL_BASE + 5 * 128;
  const first = ids.idOf(line);
  t.is(first % 4, 0);
  for (let k = 0; k < 4; k++) t.is(ids.idOf(line + 32 * k + 7), first + k);
});
