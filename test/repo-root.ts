/**
 * The checkout's root, the same whether a test runs from its source (test/) or compiled into
 * .test-build/test/ by `npm test` (scripts/test.mjs). Paths above the root (../shared) must start
 * from here: .test-build/.. is the checkout itself.
 */
import { basename, dirname, join } from 'node:path';

const above = join(import.meta.dirname, '..');

export const REPO_ROOT = basename(above) === '.test-build' ? dirname(above) : above;
