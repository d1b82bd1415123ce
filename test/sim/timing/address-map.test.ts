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

// zatel_target_n_mem: a scale model's DRAM rows hold what a row of one of its target's channels holds.
const mobile4 = new AddressMap({ channels: 4, subPerChannel: 1, banks: 16, mapping: SM75, partitionIndexing: 0, bankIndexing: 0 });
const own1 = new AddressMap({ channels: 1, subPerChannel: 1, banks: 16, mapping: SM75, partitionIndexing: 0, bankIndexing: 0 });
const scale1 = new AddressMap({ channels: 1, subPerChannel: 1, banks: 16, mapping: SM75, partitionIndexing: 0, bankIndexing: 0, rowLayoutChannels: 4 });

/** The (bank, row) pairs the DRAM opens for the 32 B sectors of [from, from + bytes). */
function rowsOf(m: AddressMap, from: number, bytes: number): Set<string> {
  const out = new Set<string>();
  for (let a = from; a < from + bytes; a += 32) {
    const d = m.decode(a);
    out.add(`${d.chip}:${d.bank}:${d.row}`);
  }
  return out;
}

test('a 1-channel scale model of 4 channels keeps the target\'s rows: a 2 KB range opens 8 rows (as the target), not 2 (its own layout)', (t) => {
  // dramid@8 deals 256 B chunks over the channels: the target's 4 channels x 2 banks (bit 7).
  t.is(rowsOf(mobile4, 0, 2048).size, 8);
  t.is(rowsOf(scale1, 0, 2048).size, 8);
  // With its own layout one channel takes all 8 chunks into the 2 rows of bank bit 7.
  t.is(rowsOf(own1, 0, 2048).size, 2);
});

test('the scale model decodes bank and column as the target and keeps the target\'s channel in the row, on one channel', (t) => {
  for (let a = 0; a < 1 << 22; a += 4096 + 96) {
    const want = mobile4.decode(a);
    const got = scale1.decode(a);
    t.is(got.chip, 0);
    t.is(got.subPartition, 0);
    t.is(got.bank, want.bank);
    t.is(got.col, want.col);
    // Two addresses share a row of the scale model exactly when they share a row of one target channel.
    t.is(got.row, want.chip * 2 ** 13 + want.row);
  }
});

test('with zatel_target_n_mem no two addresses decode to the same (chip, bank, row, column), and channels stay the scale model\'s own', (t) => {
  const two = new AddressMap({ channels: 2, subPerChannel: 2, banks: 16, mapping: SM75, partitionIndexing: 0, bankIndexing: 1, rowLayoutChannels: 12 });
  const own2 = new AddressMap({ channels: 2, subPerChannel: 2, banks: 16, mapping: SM75, partitionIndexing: 0, bankIndexing: 1 });
  const seen = new Set<string>();
  for (let a = 0; a < 1024 * 1024; a += 32) {
    const d = two.decode(a);
    t.is(d.subPartition, own2.subPartitionOf(a));
    const k = `${d.chip}:${d.bank}:${d.row}:${d.col}`;
    if (seen.has(k)) return t.fail(`alias at ${a}`);
    seen.add(k);
  }
  t.is(two.partitionAddress(12345 * 128), own2.partitionAddress(12345 * 128), 'the L2 indexes its sets as the scale model\'s own');
});

test('zatel_target_n_mem must be a multiple of the channel count', (t) => {
  t.throws(() => new AddressMap({ channels: 2, subPerChannel: 1, banks: 16, mapping: SM75, partitionIndexing: 0, bankIndexing: 0, rowLayoutChannels: 3 }), { instanceOf: ConfigError, message: /zatel_target_n_mem/ });
  t.is(loadConfig('mobile').addressMapping.rowLayoutChannels, 0);
});
