import test from 'ava';
import { SectorIds } from '../../../src/sim/timing/sector-ids.js';
import { SectorMap } from '../../../src/sim/timing/sector-map.js';
import { seededRandom } from '../../../src/sim/seeded-random.js';

test('stores, finds, replaces and deletes sector ids like a Map, through collisions, growth and wrap-around deletions', (t) => {
  const table = new SectorMap<{ v: number }>(16);
  const ids = new SectorIds();
  const want = new Map<number, { v: number }>();
  const rand = seededRandom(11);
  // Line and sector ids (line + k) of far-apart regions, as the MSHRs key them.
  const keyAt = (): number => ids.idOf([0, 2 ** 36, 2 ** 47][Math.floor(rand() * 3)]! + Math.floor(rand() * 400) * 128 + 32 * Math.floor(rand() * 4));
  for (let step = 0; step < 30000; step++) {
    const key = keyAt();
    if (want.has(key) && rand() < 0.6) {
      table.delete(key);
      want.delete(key);
    } else {
      const v = { v: step };
      table.set(key, v);
      want.set(key, v);
    }
    if (table.size !== want.size) return t.fail(`size ${table.size} instead of ${want.size}`);
    if (step % 101 === 0) for (const [k, v] of want) if (table.get(k) !== v || !table.has(k)) return t.fail(`key ${k}`);
  }
  for (let k = 0; k < 3000; k++) {
    const key = keyAt();
    if (table.get(key) !== want.get(key) || table.has(key) !== want.has(key)) return t.fail(`key ${key}`);
  }
  t.pass();
});
