/**
 * Runs an instrumented hand-built raygen module over a 1-D launch with the test interpreter and
 * returns the instrumentation buffer, as the simulator will (warp w = launch ids 32w..32w+31).
 */
import type { Module } from '../../../src/ir/module.js';
import { WarpInterpreter } from '../../primitives/warp-interpreter.js';
import { warpLaunch } from '../../primitives/ir-fixture.js';

export function runLaunch(m: Module, width: number, capacityWords = 1 << 16): Uint32Array {
  const buf = new Uint32Array(capacityWords);
  const interp = new WarpInterpreter(m, buf);
  const fn = m.functions.find((f) => f.id === m.entryPoints[0]!.function)!;
  for (let w = 0; w * 32 < width; w++) interp.run(fn, warpLaunch(w, width));
  return buf;
}

export function bytesOf(words: Uint32Array): Uint8Array {
  return new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
}
