import test from 'ava';
import { ConfigError } from '../../../src/sim/config/config-error.js';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { AddressMap } from '../../../src/sim/timing/address-map.js';

const SM75 = 'dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS';
const rtx = new AddressMap({ channels: 12, subPerChannel: 2, banks: 16, mapping: SM75, partitionIndexing: 0, bankIndexing: 0 });

test('12 channels (not a power of two): the chip is (addr >> 8) mod 12, the sub-partition the low bank bit (bit 7)', (t) => {
  t.is(rtx.channelOf(0), 0);
  t.is(rtx.channelOf(256), 1);
  t.is(rtx.channelOf(11 * 256), 11);
  t.is(rtx.channelOf(12 * 256), 0);
  t.is(rtx.subPartitionOf(0), 0);
  t.is(rtx.subPartitionOf(128), 1);
  t.is(rtx.subPartitionOf(256 + 128), 3);
  // Past the chip bits the rest of the address is ((addr >> 8) / 12) << 8 | addr & 0xff.
  const d = rtx.decode(12 * 256);
  t.deepEqual([d.chip, d.bank, d.row], [0, 0, 0]);
  t.true(d.col > 0, 'bit 8 of the rest is a column bit');
  // Bit 12 of the rest is the second bank bit: chip-local 256 B chunk 16.
  t.is(rtx.decode(16 * 12 * 256).bank, 2);
});

test('no two addresses decode to the same (chip, bank, row, column, burst) (GPGPU-Sim sweep_test)', (t) => {
  for (const m of [rtx, new AddressMap({ channels: 4, subPerChannel: 1, banks: 16, mapping: SM75, partitionIndexing: 0, bankIndexing: 0 })]) {
    const seen = new Set<string>();
    for (let a = 0; a < 1024 * 1024; a += 32) {
      const d = m.decode(a);
      const k = `${d.chip}:${d.bank}:${d.row}:${d.col}`;
      if (seen.has(k)) return t.fail(`alias at ${a}`);
      seen.add(k);
    }
  }
  t.pass();
});

test('consecutive lines of one bank share the row (row-buffer locality of streaming accesses)', (t) => {
  // Bits 0-6 are column/burst and bit 7 the sub-partition: the 8 sectors of a 256 B chunk share bank and row.
  const a = rtx.decode(0);
  for (let x = 0; x < 128; x += 32) {
    const d = rtx.decode(x);
    t.deepEqual([d.chip, d.bank, d.row], [a.chip, a.bank, a.row]);
  }
});

test('the partition address drops the chip and sub-partition bits, so an L2 slice sees dense addresses', (t) => {
  // Addresses of sub-partition 0 of channel 0, in order, map to consecutive partition addresses.
  const mine: number[] = [];
  for (let a = 0; mine.length < 8; a += 128) if (rtx.subPartitionOf(a) === 0) mine.push(rtx.partitionAddress(a));
  t.deepEqual(mine, [0, 128, 256, 384, 512, 640, 768, 896]);
});

test('a power-of-two channel count inserts the chip bits at dramid@N', (t) => {
  const m = new AddressMap({ channels: 4, subPerChannel: 1, banks: 16, mapping: SM75, partitionIndexing: 0, bankIndexing: 0 });
  t.deepEqual([0, 256, 512, 768, 1024].map((a) => m.channelOf(a)), [0, 1, 2, 3, 0]);
});

test('the presets read their mapping; malformed mappings are refused naming the key', (t) => {
  const c = loadConfig('rtx2060');
  t.is(c.addressMapping.mapping.replace(/\s/g, ''), SM75.replace(/\s/g, ''));
  t.throws(() => loadConfig('rtx2060', ['gpgpu_mem_addr_mapping=dramid@8;RRRR']), { instanceOf: ConfigError, message: /gpgpu_mem_addr_mapping/ });
  t.throws(() => new AddressMap({ channels: 12, subPerChannel: 2, banks: 16, mapping: SM75.replace('dramid@8;', '').replace('R', 'D'), partitionIndexing: 0, bankIndexing: 0 }), { instanceOf: ConfigError, message: /dramid/ });
});
