import test from 'ava';
import { parseGlsl } from '../../../src/frontend/glsl/parse.js';
import { firstNonTextCharacter } from '../../../src/frontend/glsl/source-text.js';

test('text passes; the first control character or undecodable byte is located', (t) => {
  t.is(firstNonTextCharacter('void main() {\n\t// ok\r\n}\n'), undefined);
  t.deepEqual(firstNonTextCharacter('ab\ncd\u0000ef'), { line: 2, column: 3, message: 'not a text file: control character 0x00 (a shader source must be text)' });
  t.regex(firstNonTextCharacter('x\uFFFD')!.message, /not UTF-8 text/);
});

test('megabytes of random bytes are rejected at once with file:line:col, not tokenised', (t) => {
  let seed = 7;
  const bytes = Buffer.alloc(5_000_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  const t0 = performance.now();
  const r = parseGlsl('raygen.rgen', bytes.toString('utf8'));
  const ms = performance.now() - t0;
  t.is(r.unit, undefined);
  t.is(r.diagnostics.length, 1);
  t.regex(r.diagnostics[0]!.message, /^not a text file/);
  t.true(r.diagnostics[0]!.line >= 1 && r.diagnostics[0]!.column >= 1);
  t.log(`rejected in ${ms.toFixed(1)} ms`);
});
