/**
 * The package entry point: every value it exports is documented in docs/api.md (the one place
 * the stable surface is described), and the four stages are there under their issue-12 names.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as api from '../../src/index.js';

const docs = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'api.md'), 'utf8');

test('every runtime export of src/index.ts is named in docs/api.md', (t) => {
  const missing = Object.keys(api).filter((name) => !docs.includes(name));
  t.deepEqual(missing, []);
});

test('the four stages and the utility interface are exported', (t) => {
  for (const f of ['compileWorkload', 'instrument', 'simulate', 'analyse', 'defineUtility', 'dumpEntries'] as const) t.is(typeof api[f], 'function', f);
  t.deepEqual(Object.keys(api.BUILTIN_UTILITIES), [...api.INSTRUMENTATION_MODES]);
});
