import test from 'ava';
import { LineSet } from '../../../src/sim/timing/line-set.js';
import { SectorIds } from '../../../src/sim/timing/sector-ids.js';
import { seededRandom } from '../../../src/sim/seeded-random.js';

test('holds every line added, across growth, and no other', (t) => {
  const set = new LineSet(2, 16); // 128-byte lines: 4 sector ids each
  const ids = new SectorIds();
  const want = new Set<number>();
  const rand = seededRandom(11);
  // Lines from far-apart regions (the address plan puts regions at 2^36..2^47).
  const lineAt = (): number => ids.idOf([0, 2 ** 36, 2 ** 47][Math.floor(rand() * 3)]! + Math.floor(rand() * 5000) * 128);
  for (let k = 0; k < 6000; k++) {
    const line = lineAt();
    set.add(line);
    want.add(line);
  }
  for (const line of want) if (!set.has(line)) return t.fail(`line ${line} lost`);
  for (let k = 0; k < 6000; k++) {
    const line = lineAt();
    if (set.has(line) !== want.has(line)) return t.fail(`line ${line}`);
  }
  t.pass();
});
