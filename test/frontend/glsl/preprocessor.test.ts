import test from 'ava';
import { formatDiagnostic } from '../../../src/frontend/glsl/diagnostics.js';
import { preprocess, type PreprocessOptions } from '../../../src/frontend/glsl/preprocessor.js';
import { MAX_TOKENS } from '../../../src/frontend/glsl/token-limit.js';

/** In-memory files; the first one is the main file. */
function run(files: Record<string, string>, opts: PreprocessOptions = {}) {
  const [main] = Object.keys(files);
  const host = { readFile: (p: string) => files[p] };
  const r = preprocess(main!, files[main!]!, { host, ...opts });
  return {
    ...r,
    text: r.tokens.map((t) => t.image).join(' '),
    locs: r.tokens.map((t) => `${t.image}@${r.sources[t.file]!.path}:${t.startLine}:${t.startColumn}`),
    errors: r.diagnostics.map(formatDiagnostic),
  };
}

test('object-like macros expand and rescan; function-like macros need parentheses', (t) => {
  const r = run({ 'a.glsl': '#define N 4\n#define M (N*2)\n#define F(x) x+1\nint a = M; int F; int b = F(N);' });
  t.deepEqual(r.errors, []);
  t.is(r.text, 'int a = ( 4 * 2 ) ; int F ; int b = 4 + 1 ;');
});

test('a macro does not expand inside its own expansion (no recursion)', (t) => {
  const r = run({ 'a.glsl': '#define foo foo + 1\n#define A B\n#define B A\nfoo; A;' });
  t.is(r.text, 'foo + 1 ; A ;');
});

test('# stringifies and ## pastes, operands of ## are not expanded first', (t) => {
  const r = run({ 'a.glsl': '#define X 7\n#define CAT(a, b) a ## b\n#define STR(x) #x\n#define XCAT(a, b) CAT(a, b)\nCAT(my, Var) CAT(X, 1) XCAT(X, 1) STR(a + b) CAT(1, .5)' });
  t.deepEqual(r.errors, []);
  t.is(r.text, 'myVar X1 71 "a + b" 1.5');
  t.is(r.tokens[4]!.tokenType.name, 'FloatLiteral');
});

test('function-like macro arguments may contain parentheses, commas in nested calls, and span lines', (t) => {
  const r = run({ 'a.glsl': '#define MAX(a, b) ((a) > (b) ? (a) : (b))\nfloat m = MAX(f(1, 2),\n  g(3));' });
  t.deepEqual(r.errors, []);
  t.is(r.text, 'float m = ( ( f ( 1 , 2 ) ) > ( g ( 3 ) ) ? ( f ( 1 , 2 ) ) : ( g ( 3 ) ) ) ;');
  // Body tokens are at the invocation; argument tokens stay where they were written.
  t.true(r.locs.includes('g@a.glsl:3:3'));
  t.true(r.locs.includes('>@a.glsl:2:11'));
});

test('a macro expanding to a function-like macro name takes arguments that follow it', (t) => {
  const r = run({ 'a.glsl': '#define F(x) [x]\n#define G F\nG(1) G' });
  t.is(r.text, '[ 1 ] F');
});

test('wrong argument count is reported with the macro name and leaves the text alone', (t) => {
  const r = run({ 'a.glsl': '#define FOO(a, b) a\nint x = FOO(1);\nint y = FOO(1, 2, 3);' });
  t.deepEqual(r.errors, ['a.glsl:2:9: error: macro FOO expects 2 arguments, got 1', 'a.glsl:3:9: error: macro FOO expects 2 arguments, got 3']);
  t.is(r.text, 'int x = FOO ( 1 ) ; int y = FOO ( 1 , 2 , 3 ) ;');
});

test('nested #if with defined, arithmetic, #elif and #else', (t) => {
  const src = [
    '#define A 2', '#define B', '#if defined(A) && A * 3 == 6 && defined B', 'one',
    '#  if (A << 2) > 7 || UNDEFINED_NAME', 'two', '#  elif 1', 'bad1', '#  endif',
    '#elif 1', 'bad2', '#else', 'bad3', '#endif',
    '#if 0', '#if 1', 'bad4', '#else', 'bad5', '#endif', '#elif !defined(C) && (-1 < 0) && (7 / 2 == 3) && (7 % 4 == 3) && (~0 == -1) && (1 ? 2 : 0) == 2',
    'three', '#endif', '#ifndef A', 'bad6', '#else', 'four', '#endif', '#if 0 && (1 / 0)', 'bad7', '#endif',
  ].join('\n');
  const r = run({ 'a.glsl': src });
  t.deepEqual(r.errors, []);
  t.is(r.text, 'one two three four');
});

test('#if errors: division by zero, garbage, missing #endif, stray #else', (t) => {
  const r = run({ 'a.glsl': '#if 1 / 0\n#endif\n#if 1 +\n#endif\n#else\n#endif\n#if 1\nint a;\n#ifdef X\n' });
  t.deepEqual(r.errors, [
    'a.glsl:1:7: error: division by zero in preprocessor expression',
    'a.glsl:3:7: error: missing operand in preprocessor expression',
    'a.glsl:5:1: error: #else without #if',
    'a.glsl:6:1: error: #endif without #if',
    'a.glsl:9:1: error: unterminated #if (opened at line 7)',
    'a.glsl:9:1: error: unterminated #ifdef (opened at line 9)',
  ]);
});

test('#undef removes a macro; redefinition with a different body is an error', (t) => {
  const r = run({ 'a.glsl': '#define A 1\n#define A 1\n#undef A\nA\n#define B 1\n#define B 2\nB' });
  t.deepEqual(r.errors, ['a.glsl:6:9: error: macro B redefined differently (previous definition at a.glsl:5)']);
  t.is(r.text, 'A 2');
});

test('#include searches beside the including file, then the -I dirs, and records each file once', (t) => {
  const r = run({
    'shaders/main.rgen': '#include "lib/a.glsl"\n#include <b.glsl>\nmain_end',
    'shaders/lib/a.glsl': '#include "c.glsl"\na_body',
    'shaders/lib/c.glsl': 'c_body',
    'inc/b.glsl': '#include "lib/a.glsl"\nb_body',
    'inc/lib/a.glsl': 'wrong_a',
  }, { includeDirs: ['inc'] });
  t.deepEqual(r.errors, []);
  // b.glsl's "lib/a.glsl" resolves beside b.glsl (inc/lib/a.glsl) first.
  t.is(r.text, 'c_body a_body wrong_a b_body main_end');
  t.deepEqual(r.sources.map((s) => s.path), ['shaders/main.rgen', 'shaders/lib/a.glsl', 'shaders/lib/c.glsl', 'inc/b.glsl', 'inc/lib/a.glsl']);
  t.is(r.sources[2]!.text, 'c_body');
  t.deepEqual(r.locs, ['c_body@shaders/lib/c.glsl:1:1', 'a_body@shaders/lib/a.glsl:2:1', 'wrong_a@inc/lib/a.glsl:1:1', 'b_body@inc/b.glsl:2:1', 'main_end@shaders/main.rgen:3:1']);
});

test('a missing include names every directory searched', (t) => {
  const r = run({ 'src/main.rgen': '\n  #include "foo.glsl"\n' }, { includeDirs: ['a', 'b/'] });
  t.deepEqual(r.errors, ['src/main.rgen:2:12: error: cannot open include file "foo.glsl" (searched: src/, a/, b/)']);
});

test('include guards and #pragma once stop a second inclusion', (t) => {
  const r = run({
    'm.glsl': '#include "g.glsl"\n#include "g.glsl"\n#include "o.glsl"\n#include "o.glsl"\nend',
    'g.glsl': '#ifndef G_H\n#define G_H\nguarded\n#endif',
    'o.glsl': '#pragma once\nonce',
  });
  t.deepEqual(r.errors, []);
  t.is(r.text, 'guarded once end');
});

test('recursive includes stop with a diagnostic instead of hanging', (t) => {
  const r = run({ 'a.glsl': '#include "a.glsl"\nx' });
  t.is(r.errors.length, 1);
  t.regex(r.errors[0]!, /^a\.glsl:1:10: error: #include nested too deeply/);
});

test('errors inside an included file point into that file', (t) => {
  const r = run({ 'm.rgen': 'int a;\n#include "inc.glsl"\n', 'inc.glsl': 'int b;\n\n#error something is wrong\n#define F(x) x\nF(1, 2)' });
  t.deepEqual(r.errors, ['inc.glsl:3:1: error: #error something is wrong', 'inc.glsl:5:1: error: macro F expects 1 argument, got 2']);
});

test('#line renumbers following lines (and can name a file); __LINE__ follows it', (t) => {
  const r = run({ 'm.glsl': 'a __LINE__\n#line 100\nb __LINE__\nc\n#line 7 "other.glsl"\nd __FILE__' });
  t.deepEqual(r.locs, ['a@m.glsl:1:1', '1@m.glsl:1:3', 'b@m.glsl:100:1', '100@m.glsl:100:3', 'c@m.glsl:101:1', 'd@other.glsl:7:1', '1@other.glsl:7:3']);
});

test('__LINE__ inside a macro is the line of the invocation; __VERSION__ follows #version', (t) => {
  const r = run({ 'm.glsl': '#version 450\n#define L __LINE__\n\nL __VERSION__' });
  t.is(r.text, '4 450');
  t.is(r.version, 450);
});

test('#version and #extension are recorded; predefined macros match glslang for Vulkan', (t) => {
  const r = run({ 'm.glsl': '#version 460\n#extension GL_EXT_ray_tracing : require\n#extension GL_EXT_nonuniform_qualifier:enable\nVULKAN GL_core_profile\n#ifdef GL_EXT_ray_tracing\nrt\n#endif\n#if GL_EXT_buffer_reference && GL_KHR_shader_subgroup_ballot\nbr\n#endif' });
  t.deepEqual(r.errors, []);
  t.is(r.text, '100 1 rt br');
  t.deepEqual(r.extensions, [
    { name: 'GL_EXT_ray_tracing', behavior: 'require', loc: { file: 0, line: 2, column: 12 } },
    { name: 'GL_EXT_nonuniform_qualifier', behavior: 'enable', loc: { file: 0, line: 3, column: 12 } },
  ]);
});

test('command-line defines are visible and can be tested', (t) => {
  const r = run({ 'm.glsl': '#if SAMPLES > 4\nmany\n#endif\nMODE' }, { defines: { SAMPLES: '8', MODE: 'fast()' } });
  t.is(r.text, 'many fast ( )');
});

test('directives in inactive regions are skipped, other #pragma ignored, unknown directives reported', (t) => {
  const r = run({ 'm.glsl': '#if 0\n#error not me\n#bogus\n#include "nothere"\n#endif\n#pragma optimize(off)\n#\n#bogus\nx' });
  t.deepEqual(r.errors, ['m.glsl:8:2: error: unknown preprocessor directive #bogus']);
  t.is(r.text, 'x');
});

test('bad #define forms are diagnosed', (t) => {
  const r = run({ 'm.glsl': '#define\n#define F(a, a) a\n#define G(a) #b\n#define H ## x\n#define __LINE__ 3\n#define S (x) x\nS(1)' });
  t.deepEqual(r.errors, [
    'm.glsl:1:1: error: #define expects a macro name',
    "m.glsl:2:14: error: duplicate macro parameter 'a'",
    "m.glsl:3:14: error: '#' is not followed by a macro parameter",
    "m.glsl:4:11: error: '##' cannot appear at either end of a macro body",
    'm.glsl:5:9: error: cannot redefine built-in macro __LINE__',
  ]);
  // `S (x)` has a space before '(': object-like.
  t.is(r.text, '( x ) x ( 1 )');
});

test('keywords and type names are classified after expansion, so macros can produce them', (t) => {
  const r = run({ 'm.glsl': '#define REAL float\nREAL x; struct' });
  t.deepEqual(r.tokens.map((x) => x.tokenType.name), ['BuiltinType', 'Identifier', 'Semicolon', 'Struct']);
});

test('#version must come first and only in the main file', (t) => {
  const ok = run({ 'm.glsl': '// header comment\n\n/* block */\n#version 460\nx' });
  t.deepEqual(ok.errors, []);
  const late = run({ 'm.glsl': 'int x;\n#version 460\n', 'i.glsl': '#version 450\n' });
  t.deepEqual(late.errors, ['m.glsl:2:1: error: #version must come before anything else in the shader (only comments and blank lines may precede it)']);
  const inc = run({ 'm.glsl': '#version 460\n#include "i.glsl"\n', 'i.glsl': '#version 450\n' });
  t.deepEqual(inc.errors, ['i.glsl:1:1: error: #version is only allowed in the main shader file']);
});

test('pasting two tokens that do not form one token is reported', (t) => {
  const r = run({ 'm.glsl': '#define CAT(a, b) a ## b\nCAT(+, /)' });
  t.deepEqual(r.errors, ['m.glsl:2:1: error: pasting "+" and "/" does not give a valid token']);
  t.is(r.text, '+ /');
});

test('CRLF line endings and a byte-order mark do not disturb lines, columns or directives', (t) => {
  const r = run({ 'm.glsl': '\uFEFF#define A 1\r\nint a = A;\r\n#if A\r\n  b \\\r\n c\r\n#endif\r\n' });
  t.deepEqual(r.errors, []);
  t.deepEqual(r.locs, ['int@m.glsl:2:1', 'a@m.glsl:2:5', '=@m.glsl:2:7', '1@m.glsl:2:9', ';@m.glsl:2:10', 'b@m.glsl:4:3', 'c@m.glsl:5:2']);
  t.is(r.sources[0]!.text.charCodeAt(0), '#'.charCodeAt(0));
});

test('<...> includes search the -I dirs first; names may contain path separators, dots and dashes', (t) => {
  const r = run({
    'src/main.rgen': '#include <sub-dir/x.y-z.glsl>\n#include "sub-dir/x.y-z.glsl"\n',
    'src/sub-dir/x.y-z.glsl': 'beside',
    'inc/sub-dir/x.y-z.glsl': 'from_include_dir',
  }, { includeDirs: ['inc'] });
  t.deepEqual(r.errors, []);
  t.is(r.text, 'from_include_dir beside');
});

test('__FILE__ is the index of the file in sources, as glslang numbers source strings', (t) => {
  const r = run({ 'm.glsl': '__FILE__\n#include "a.glsl"\n#include "b.glsl"\n#include "a.glsl"\n', 'a.glsl': '__FILE__', 'b.glsl': '__FILE__ __LINE__' });
  t.is(r.text, '0 1 2 1 1');
});

test('#line inside an included file renumbers only that file', (t) => {
  const r = run({ 'm.glsl': '#include "a.glsl"\nafter', 'a.glsl': '#line 50\ninside' });
  t.deepEqual(r.locs, ['inside@a.glsl:50:1', 'after@m.glsl:2:1']);
});

/** `#define A0 x`, `#define A1 A0 + A0`, ...: A<n> expands to 2^(n+1) - 1 tokens. */
function doublingMacros(n: number): string {
  return ['#define A0 x', ...Array.from({ length: n }, (_, i) => `#define A${i + 1} A${i} + A${i}`)].join('\n');
}

test('a macro doubling 39 times stops at the token limit with one located error (glslang takes 7.6 s to reject it)', (t) => {
  const t0 = performance.now();
  const r = run({ 'm.glsl': `${doublingMacros(39)}\nfloat y = A39;` }, { maxTokens: 2000 });
  t.deepEqual(r.errors, ["m.glsl:41:11: error: macro expansion produces more than 2000 tokens: vvision's token limit for one shader after preprocessing"]);
  t.true(r.tokens.length <= 2000 + 100, `${r.tokens.length} tokens`);
  t.true(performance.now() - t0 < 5000);
});

test('the token limit counts the tokens after preprocessing; a shader at the limit is untouched', (t) => {
  const text = `float y = ${Array.from({ length: 600 }, () => 'x').join(' + ')};`; // 4 + 1199 tokens
  t.deepEqual(run({ 'm.glsl': text }, { maxTokens: 1203 }).errors, []);
  const over = run({ 'm.glsl': text }, { maxTokens: 1202 });
  t.deepEqual(over.errors, [`m.glsl:1:${text.lastIndexOf(';') + 1}: error: the shader has more than 1202 tokens after preprocessing: vvision's token limit for one shader`]);
  t.is(over.tokens.length, 1202);
});

test('MAX_TOKENS is the default limit and leaves room for 20,000-term generated sums', (t) => {
  t.true(MAX_TOKENS >= 2 * 20000 + 100);
  const r = run({ 'm.glsl': `float y = ${Array.from({ length: MAX_TOKENS / 2 + 1 }, () => 'x').join('+')};` });
  t.is(r.errors.length, 1);
  t.regex(r.errors[0]!, new RegExp(`^m\\.glsl:1:\\d+: error: the shader has more than ${MAX_TOKENS} tokens after preprocessing`));
});
