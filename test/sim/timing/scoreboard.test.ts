import test from 'ava';
import { InstructionScoreboard } from '../../../src/sim/timing/scoreboard.js';
import type { StepDeps } from '../../../src/sim/warp-step.js';

// Three instructions: 0 = a load, 1 = ALU, 2 reads both.
const deps: StepDeps = { start: Uint32Array.from([0, 0, 0, 2]), list: Uint32Array.from([0, 1]), fromMemory: Uint8Array.from([1, 0, 0]) };

test('an instruction waits for its ALU producer\'s latency, and for its load until the loads are back', (t) => {
  const sb = new InstructionScoreboard(2, 100);
  sb.issued(0, 1, 14);
  t.is(sb.readyAt(0, deps, 2, 1, 0), Infinity, 'the load is outstanding');
  t.true(sb.loadsDone(0), 'the blocked context is released once');
  t.false(sb.loadsDone(0));
  t.is(sb.readyAt(0, deps, 2, 0, 0), 14, 'then the ALU result decides');
  t.is(sb.readyAt(1, deps, 2, 0, 0), 0, 'contexts are independent');
  t.false(sb.loadsDone(1));
});

test('a producer older than the ring is ready already', (t) => {
  const sb = new InstructionScoreboard(1, 4); // ring of 8
  const far: StepDeps = { start: Uint32Array.from([0, ...Array(20).fill(0), 1]), list: Uint32Array.from([0]), fromMemory: new Uint8Array(21) };
  sb.issued(0, 0, 1000);
  sb.issued(0, 8, 5); // same ring slot, later instruction
  t.is(sb.readyAt(0, far, 20, 0, 0), 0);
});

test('an instruction found ready stays ready until its context starts another step', (t) => {
  const sb = new InstructionScoreboard(1, 20);
  // Two instructions: 1 reads the ALU result of 0.
  const deps: StepDeps = { start: Uint32Array.from([0, 0, 1]), list: Uint32Array.from([0]), fromMemory: new Uint8Array(2) };
  sb.issued(0, 0, 14);
  t.is(sb.readyAt(0, deps, 1, 0, 10), 14, 'not ready at cycle 10');
  t.is(sb.readyAt(0, deps, 1, 0, 14), 14, 'ready at 14');
  t.is(sb.readyAt(0, deps, 1, 0, 15), 0, 'remembered: its producers have issued');
  sb.startStep(0);
  sb.issued(0, 0, 30);
  t.is(sb.readyAt(0, deps, 1, 0, 15), 30, 'a new step is checked again');
});
