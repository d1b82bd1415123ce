/**
 * The GLSL grammar passes chevrotain's own grammar checks. The shared parser instance skips them
 * to start fast (src/frontend/glsl/parser.ts, tokens.ts), so they run here: a parser built with
 * `validateGrammar` throws on an ambiguity, left recursion or unreachable alternative, a lexer with
 * validations on an unreachable or invalid token pattern.
 */
import test from 'ava';
import { Lexer } from '../../../src/frontend/glsl/chevrotain.js';
import { GlslParser } from '../../../src/frontend/glsl/parser.js';
import { lexedTokenTypes } from '../../../src/frontend/glsl/tokens.js';

test('the GLSL grammar passes chevrotain\'s grammar validations', (t) => {
  t.notThrows(() => new GlslParser(true));
});

test('the GLSL token definitions pass chevrotain\'s lexer validations', (t) => {
  t.notThrows(() => new Lexer(lexedTokenTypes, { positionTracking: 'full', ensureOptimizations: false }));
});
