/**
 * chevrotain, loaded from the package's single-file ES bundle (`lib/chevrotain.mjs`) instead of its
 * `exports` entry (`lib/src/api.js`). The entry imports lodash-es file by file, several hundred
 * modules, which takes ~0.4 s of CPU at every start of a process that compiles GLSL (issue 25: a
 * trivial `vvision compile` within 0.3 s); the bundle is the same release's code in one module and
 * loads in ~0.02 s. Every front-end file takes chevrotain's values from here, never from
 * 'chevrotain', so token types, parser classes and exceptions come from one copy; types may still
 * be imported from 'chevrotain'.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Chevrotain = typeof import('chevrotain');

/** `lib/src/api.js` (the package's entry, resolved the way Node resolves it) -> `lib/chevrotain.mjs`. */
const bundle = join(dirname(createRequire(import.meta.url).resolve('chevrotain')), '..', 'chevrotain.mjs');
const chevrotain = (await import(pathToFileURL(bundle).href)) as Chevrotain;

export const { CstParser, EOF, Lexer, createToken, tokenMatcher } = chevrotain;
export type CstParser = import('chevrotain').CstParser;
export type Lexer = import('chevrotain').Lexer;
