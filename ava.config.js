/**
 * ava's configuration (a file, not package.json's "ava" key, because `sortTestFiles` is a function)
 * for running test files from their TypeScript sources: `npx ava test/x.test.ts`. `npm test` runs
 * the compiled files instead (scripts/test.mjs, ava.compiled.config.js, which shares the order).
 * Worker threads, one per test file, each registering tsx itself (test/tsx-in-worker.mjs): a
 * process per file cost about 0.4 CPU-s more per file (docs/performance.md). `--no-worker-threads`
 * runs each file in its own process, with tsx from `nodeArguments`.
 *
 * Order: with two workers, a long file that starts near the end runs alone while the other core
 * idles. The costliest files (per-file CPU with children, bench/test-file-cpu.mjs; docs/performance.md
 * "Test suite") start first, longest first; the rest keep ava's order. A file missing from the list
 * only loses its early start.
 */
import { fileURLToPath } from 'node:url';

const COSTLIEST_FIRST = [
  'test/device/every-workload.test.ts',
  'test/driver/zatel/run-zatel.test.ts',
  'test/frontend/spirv/cross-check.test.ts',
  'test/device/device-run.test.ts',
  'test/frontend/glsl/deep-input.test.ts',
  'test/driver/jobs/slurm-backend.test.ts',
  'test/api/examples-library.test.ts',
  'test/driver/sweep/run-sweep.test.ts',
  'test/sim/timing/stats-golden.test.ts',
  'test/backend/spirv/write-spirv.test.ts',
  'test/cli/cli.test.ts',
  'test/driver/instrument-workload.test.ts',
  'test/sim/timing/treelets/treelet-policy.test.ts',
  'test/driver/its.test.ts',
  'test/frontend/spirv/read-spirv.test.ts',
  'test/frontend/glsl/compile-glslang.test.ts',
  'test/workloads/render.test.ts',
  'test/cli/instrument-utility.test.ts',
  'test/sim/timing/predictor/intersection-predictor.test.ts',
  'test/cli/sim-timeline.test.ts',
  'test/device/device-run-dir.test.ts',
  'test/report/write-report.test.ts',
  'test/utilities/load-utility.test.ts',
  'test/driver/emit-spirv-twin.test.ts',
  'test/workloads/glslang.test.ts',
  'test/driver/emit-spirv.test.ts',
];

const rank = (file) => {
  const k = COSTLIEST_FIRST.findIndex((f) => file.replace(/\.js$/, '.ts').endsWith(f));
  return k < 0 ? COSTLIEST_FIRST.length : k;
};

export default {
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  files: ['test/**/*.test.ts'],
  workerThreads: true,
  // An absolute path: ava 7 resolved the relative 'test/tsx-in-worker.mjs' against its cache folder.
  require: [fileURLToPath(new URL('test/tsx-in-worker.mjs', import.meta.url))],
  timeout: '120s',
  sortTestFiles: (a, b) => rank(a) - rank(b) || a.localeCompare(b, [], { numeric: true }),
};
