import test from 'ava';
import { InstructionScoreboard } from '../../../src/sim/timing/scoreboard.js';
import type { StepDeps } from '../../../src/sim/warp-step.js';

/** StepDeps with only the in-step dependency lists set (what the scoreboard reads). */
function deps(start: number[], list: number[]): StepDeps {
  const n = start.length - 1;
  const none = new Uint32Array(n + 1);
  return {
    start: Uint32Array.from(start), list: Uint32Array.from(list),
    ptx: new Uint8Array(n), ptxCount: new Uint8Array(n).fill(1), chainStart: none, chain: new Uint8Array(0),
    regStart: none, regs: new Int32Array(0), dst: new Int32Array(n).fill(-1),
    xStart: none, xsrc: new Int32Array(0), wStart: none, wkeys: new Int32Array(0),
  };
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
