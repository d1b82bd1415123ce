/**
 * ava's configuration for `npm test` (scripts/test.mjs): the test files as tsc compiled them into
 * .test-build/, plain JavaScript in worker threads with no loader. ava.config.js (TypeScript through
 * tsx) is for running test files from their sources, `npx ava test/x.test.ts`; both share the order.
 */
import base from './ava.config.js';

export default {
  files: ['.test-build/test/**/*.test.js'],
  workerThreads: true,
  timeout: base.timeout,
  sortTestFiles: base.sortTestFiles,
};
