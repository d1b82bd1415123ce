/**
 * Runs fuzz cases for fuzz/main.ts in a worker thread, so a case that hangs can be stopped. It
 * loads its seeds first (GLSL shaders, and the SPIR-V modules when `workerData.spirv` is set:
 * that compiles every built-in workload) and then says `ready`: fuzz/main.ts starts a case's
 * timer only after that, so a slow start under load is never taken for a hang.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runCase, seedShaders } from './fuzz-cases.js';
import { runSpirvCase, seedModules } from './spirv-mutants.js';

export interface CaseRequest {
  kind: 'glsl' | 'spirv';
  seed: number;
}

const shaders = seedShaders();
const modules = (workerData as { spirv?: boolean } | undefined)?.spirv ? seedModules() : [];
parentPort!.on('message', (req: CaseRequest) => {
  if (req.kind === 'spirv') {
    parentPort!.postMessage(runSpirvCase(modules, req.seed));
    return;
  }
  const { text: _text, ...result } = runCase(shaders, req.seed);
  parentPort!.postMessage(result);
});
parentPort!.postMessage('ready');
