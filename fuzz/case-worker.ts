/** Runs fuzz cases for fuzz/main.ts in a worker thread, so a case that hangs can be stopped. */
import { parentPort } from 'node:worker_threads';
import { runCase, seedShaders } from './fuzz-cases.js';

const shaders = seedShaders();
parentPort!.on('message', (seed: number) => {
  const { text: _text, ...result } = runCase(shaders, seed);
  parentPort!.postMessage(result);
});
