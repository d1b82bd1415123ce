import test from 'ava';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { IssuePipeline } from '../../../src/sim/timing/operand-collector.js';
import { IssueUnit } from '../../../src/sim/ptx-op.js';

const regs = (...r: number[]): Int32Array => Int32Array.from(r);

test('a dependent instruction issues latency + 5 cycles after its producer with two collector steps per cycle (GPGPU-Sim\'s pipeline)', (t) => {
  const cfg = loadConfig('rtx2060');
  const p = new IssuePipeline(cfg);
  t.is(p.depth, 5);
  p.reserve(100, IssueUnit.Sp, 0, 0, regs(7), 0, 1, 8, 4, 2);
  t.is(p.execAt, 103, 'ID_OC at 100, collector unit and read at 101, dispatch at 102, the unit takes it at 103');
  t.is(p.writebackAt, 109, 'EX_WB at 103 + 4 + 1, writeback the cycle after');
  t.is(p.slotFreeAt(IssueUnit.Sp, 0), 101, 'the scheduler\'s ID_OC slot frees when a collector unit takes the instruction');
});

test('one collector step per cycle makes the pipeline a cycle longer', (t) => {
  const p = new IssuePipeline(loadConfig('rtx2060', ['gpgpu_reg_file_port_throughput=1']));
  t.is(p.depth, 6);
  p.reserve(0, IssueUnit.Int, 1, 0, regs(3), 0, 1, -1, 1, 1);
  t.is(p.writebackAt, 7);
});

test('operands in one register bank are read in successive steps', (t) => {
  // Sub-core model: 16 banks, 4 per scheduler; registers 1, 5 and 9 of warp 0 share a bank.
  const same = new IssuePipeline(loadConfig('rtx2060'));
  same.reserve(0, IssueUnit.Sp, 0, 0, regs(1, 5, 9), 0, 3, -1, 4, 2);
  const spread = new IssuePipeline(loadConfig('rtx2060'));
  spread.reserve(0, IssueUnit.Sp, 0, 0, regs(1, 2, 3), 0, 3, -1, 4, 2);
  t.is(spread.writebackAt, 9);
  t.is(same.writebackAt, 10, 'three reads of one bank take three steps: dispatch a cycle later');
});

test('a bank written back in a cycle reads nothing in that cycle\'s first step', (t) => {
  const p = new IssuePipeline(loadConfig('rtx2060', ['gpgpu_reg_file_port_throughput=1']));
  // Writes register 4 (bank 0 of scheduler 0 for warp 0) back at cycle 7.
  p.reserve(0, IssueUnit.Int, 0, 0, regs(), 0, 0, 4, 1, 1);
  const wb = p.writebackAt;
  // An instruction whose read of bank 0 would fall in that cycle's step waits a step.
  p.reserve(wb - 2, IssueUnit.Int, 0, 0, regs(8), 0, 1, -1, 1, 1);
  t.is(p.execAt, wb - 2 + 4 + 1);
});

test('a unit busy for its initiation interval delays the next instruction, not its issue', (t) => {
  const p = new IssuePipeline(loadConfig('rtx2060', ['gpgpu_num_sfu_units=1']));
  p.reserve(0, IssueUnit.Sfu, 0, 0, regs(1), 0, 1, -1, 100, 8);
  const first = p.execAt;
  p.reserve(1, IssueUnit.Sfu, 0, 1, regs(2), 0, 1, -1, 100, 8);
  t.is(p.execAt, first + 8, 'the SFU takes it once its dispatch register frees');
});

test('an instruction\'s further PTX instructions hold the units of their class for their initiation interval, one after another', (t) => {
  const p = new IssuePipeline(loadConfig('rtx2060'));
  // Four SP units at interval 2. A vec4 operation's first fmul takes a unit at 11 (busy until 13);
  // its three further fmuls start at 12, 13 (that unit again: the tightest fit) and 14.
  p.reserve(8, IssueUnit.Sp, 0, 0, regs(1), 0, 1, 2, 4, 2);
  t.is(p.execAt, 11);
  t.is(p.occupy(IssueUnit.Sp, p.execAt + 1, 3, 2), 14, 'each a cycle after the one before');
  // Another scheduler's four, reserved later but from cycle 12, fill the two units left idle first.
  t.is(p.occupy(IssueUnit.Sp, 12, 4, 2), 15, 'one a cycle from 12: no unit was held idle ahead of them');
  p.reserve(12, IssueUnit.Sp, 1, 1, regs(3), 0, 1, -1, 4, 2);
  t.is(p.execAt, 15, 'a later instruction waits for the first unit they leave free');
  // One SFU at interval 8: three further transcendentals start 8 cycles apart.
  const one = new IssuePipeline(loadConfig('rtx2060', ['gpgpu_num_sfu_units=1']));
  one.reserve(0, IssueUnit.Sfu, 0, 0, regs(1), 0, 1, -1, 100, 8);
  t.is(one.occupy(IssueUnit.Sfu, one.execAt + 1, 3, 8), one.execAt + 24);
});

test('without a free collector unit the instruction stays in its ID_OC slot, which holds the scheduler\'s next issue to that unit', (t) => {
  const p = new IssuePipeline(loadConfig('rtx2060', ['gpgpu_operand_collector_num_units_gen=1']));
  p.reserve(0, IssueUnit.Sp, 0, 0, regs(1, 5, 9, 13), 0, 4, -1, 4, 2);
  const firstDispatchCycle = p.execAt - 1;
  p.reserve(0, IssueUnit.Sp, 1, 1, regs(2), 0, 1, -1, 4, 2);
  t.true(p.slotFreeAt(IssueUnit.Sp, 1) >= firstDispatchCycle, 'its slot frees only when the one collector unit does');
});

test('the config declares the issue stage from the file\'s lines', (t) => {
  const c = loadConfig('rtx2060');
  t.true(c.issue.subCore);
  t.is(c.issue.regBanks, 16);
  t.is(c.issue.portThroughput, 2);
  t.deepEqual(c.issue.collectorSets, [{ units: 8, inPorts: 8, outPorts: 8, serves: [0, 1, 2, 3, 4] }]);
  t.deepEqual(c.issue.ocExWidth, [4, 4, 4, 0, 4]);
  t.is(c.units.int, 4);
  const spec = loadConfig('rtx2060', ['gpgpu_enable_specialized_operand_collector=1', 'gpgpu_operand_collector_num_units_gen=0', 'gpgpu_num_int_units=0']);
  t.deepEqual(spec.issue.collectorSets.map((s) => s.serves), [[0], [2], [4]], 'SP, SFU and MEM sets (the INT and DP sets have no units by default)');
  t.throws(() => loadConfig('rtx2060', ['gpgpu_enable_specialized_operand_collector=1', 'gpgpu_operand_collector_num_units_gen=0']), { message: /no operand collector unit serves the 4 units of gpgpu_num_int_units/ });
  t.throws(() => loadConfig('rtx2060', ['gpgpu_num_reg_banks=6']), { message: /do not divide among 4 schedulers/ });
});

test('the tables hold steps as 32-bit integers: a cycle past their range is refused, not wrapped', (t) => {
  const p = new IssuePipeline(loadConfig('rtx2060'));
  p.reserve(2 ** 30 - 2 ** 14, IssueUnit.Sp, 0, 0, regs(1), 0, 1, 2, 4, 2);
  t.is(p.writebackAt, 2 ** 30 - 2 ** 14 + 9);
  t.throws(() => p.reserve(2 ** 30, IssueUnit.Sp, 0, 0, regs(1), 0, 1, 2, 4, 2), { message: /past the last/ });
});
