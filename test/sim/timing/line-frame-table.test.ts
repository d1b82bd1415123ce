import test from 'ava';
import { ABSENT, LineFrameTable, NEVER } from '../../../src/sim/timing/line-frame-table.js';
import { SectorIds } from '../../../src/sim/timing/sector-ids.js';
import { seededRandom } from '../../../src/sim/seeded-random.js';

test('keeps every line recorded with its frame or ABSENT, across collisions and growth; NEVER for the others', (t) => {
  const table = new LineFrameTable(16, 2); // 128-byte lines: 4 sector ids each
  const ids = new SectorIds();
  const want = new Map<number, number>();
  const rand = seededRandom(7);
  // Lines from a few far-apart regions (the address plan puts regions at 2^36..2^47), so home slots collide.
  const lineAt = (): number => ids.idOf([0, 2 ** 36, 2 ** 47][Math.floor(rand() * 3)]! + Math.floor(rand() * 3000) * 128);
  for (let step = 0; step < 20000; step++) {
    const line = lineAt();
    const frame = rand() < 0.3 ? ABSENT : Math.floor(rand() * 512);
    table.set(line, frame);
    want.set(line, frame);
    if (step % 97 === 0) for (const [l, f] of want) if (table.get(l) !== f) return t.fail(`line ${l}: ${table.get(l)} instead of ${f}`);
  }
  for (let k = 0; k < 2000; k++) {
    const line = lineAt();
    if (table.get(line) !== (want.get(line) ?? NEVER)) return t.fail(`line ${line}`);
  }
  t.pass();
});
