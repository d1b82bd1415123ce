import test from 'ava';
import { InstructionScoreboard } from '../../../src/sim/timing/scoreboard.js';
import { packStepDeps, type StepDeps } from '../../../src/sim/step-deps-layout.js';

/** StepDeps with only the in-step dependency lists set (what the scoreboard reads): instruction i reads list[start[i] .. start[i + 1]). */
function deps(start: number[], list: number[]): StepDeps {
  return packStepDeps(start.slice(1).map((end, i) => ({
    ptx: 0, count: 1, dst: -1, deps: list.slice(start[i], end), chain: [], regs: [], xsrc: [], wkeys: [],
  })));
}

// Three instructions: 0 = a load, 1 = ALU, 2 reads both.
const three = deps([0, 0, 0, 2], [0, 1]);

test('an instruction waits for its ALU producer\'s writeback, and for its load until that load is settled', (t) => {
  const sb = new InstructionScoreboard(2, 100);
  sb.issued(0, 0, Infinity);
  sb.issued(0, 1, 14);
  t.is(sb.readyAt(0, three, 2, 0), Infinity, 'the load is outstanding');
  sb.settle(0, 0, 40);
  t.is(sb.readyAt(0, three, 2, 0), 40, 'then its writeback decides');
  t.is(sb.readyAt(1, three, 2, 0), 0, 'contexts are independent');
});

test('a settle for an instruction of an earlier step changes nothing', (t) => {
  const sb = new InstructionScoreboard(1, 100);
  sb.issued(0, 0, Infinity);
  sb.startStep(0);
  sb.issued(0, 1, 14);
  sb.settle(0, 0, 500);
  t.is(sb.readyAt(0, three, 2, 0), 14, 'instruction 0 of the new step has not issued: no entry');
});

test('a producer older than the ring is ready already', (t) => {
  const sb = new InstructionScoreboard(1, 4); // ring of 8
  const far = deps([0, ...Array(20).fill(0), 1], [0]);
  sb.issued(0, 0, 1000);
  sb.issued(0, 8, 5); // same ring slot, later instruction
  t.is(sb.readyAt(0, far, 20, 0), 0);
});

test('an instruction found ready stays ready until its context starts another step', (t) => {
  const sb = new InstructionScoreboard(1, 20);
  const two = deps([0, 0, 1], [0]);
  sb.issued(0, 0, 14);
  t.is(sb.readyAt(0, two, 1, 10), 14, 'not ready at cycle 10');
  t.is(sb.readyAt(0, two, 1, 14), 14, 'ready at 14');
  t.is(sb.readyAt(0, two, 1, 15), 0, 'remembered: its producers are written back');
  sb.startStep(0);
  sb.issued(0, 0, 30);
  t.is(sb.readyAt(0, two, 1, 15), 30, 'a new step is checked again');
});
