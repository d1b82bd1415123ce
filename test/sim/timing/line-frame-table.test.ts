import test from 'ava';
import { LineFrameTable } from '../../../src/sim/timing/line-frame-table.js';
import { SectorIds } from '../../../src/sim/timing/sector-ids.js';
import { seededRandom } from '../../../src/sim/seeded-random.js';

test('stores, finds and deletes lines like a Map, through collisions and wrap-around deletions', (t) => {
  const frames = 64;
  const table = new LineFrameTable(frames, 2); // 128-byte lines: 4 sector ids each
  const ids = new SectorIds();
  const want = new Map<number, number>();
  const rand = seededRandom(7);
  // Lines from a few far-apart regions (the address plan puts regions at 2^36..2^47), so home slots collide.
  const lineAt = (): number => ids.idOf([0, 2 ** 36, 2 ** 47][Math.floor(rand() * 3)]! + Math.floor(rand() * 300) * 128);
  for (let step = 0; step < 20000; step++) {
    const line = lineAt();
    if (want.has(line)) {
      if (rand() < 0.5) {
        table.delete(line);
        want.delete(line);
      }
    } else if (want.size < frames) {
      const f = Math.floor(rand() * frames);
      table.set(line, f);
      want.set(line, f);
    }
    if (step % 97 === 0) for (const [l, f] of want) if (table.get(l) !== f) return t.fail(`line ${l}: ${table.get(l)} instead of ${f}`);
  }
  for (let k = 0; k < 2000; k++) {
    const line = lineAt();
    if (table.get(line) !== (want.get(line) ?? -1)) return t.fail(`line ${line}`);
  }
  t.pass();
});
