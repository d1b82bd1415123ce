import test from 'ava';
import {
  BuiltinType, classifyWord, FloatLiteral, Identifier, IntLiteral, lexGlsl, MemoryQualifier, Newline, StorageQualifier,
  Struct, Void,
} from '../../../src/frontend/glsl/tokens.js';

const kinds = (text: string): string[] => lexGlsl(text).tokens.map((t) => `${t.tokenType.name}:${t.image}`);

test('numeric literals keep their suffixes and floats win over ints', (t) => {
  t.deepEqual(kinds('1 1u 0x1F 0XffU 017 1ul 2l 3s 4us 1.0 .5 2. 1e5 1.5e-3f 2.0lf 3.0LF 1.0hf 4e2F'), [
    'IntLiteral:1', 'IntLiteral:1u', 'IntLiteral:0x1F', 'IntLiteral:0XffU', 'IntLiteral:017', 'IntLiteral:1ul',
    'IntLiteral:2l', 'IntLiteral:3s', 'IntLiteral:4us', 'FloatLiteral:1.0', 'FloatLiteral:.5', 'FloatLiteral:2.',
    'FloatLiteral:1e5', 'FloatLiteral:1.5e-3f', 'FloatLiteral:2.0lf', 'FloatLiteral:3.0LF', 'FloatLiteral:1.0hf',
    'FloatLiteral:4e2F',
  ]);
});

test('punctuators are matched longest first', (t) => {
  t.deepEqual(lexGlsl('a<<=b>>=c++--d<=e^^f##g#h->').tokens.map((x) => x.image),
    ['a', '<<=', 'b', '>>=', 'c', '++', '--', 'd', '<=', 'e', '^^', 'f', '##', 'g', '#', 'h', '-', '>']);
});

test('comments and line continuations are skipped but newlines are tokens', (t) => {
  const r = lexGlsl('a // one\nb /* two\nlines */ c \\\nd\r\ne');
  t.deepEqual(r.errors, []);
  t.deepEqual(r.tokens.map((x) => (x.tokenType === Newline ? 'NL' : x.image)), ['a', 'NL', 'b', 'c', 'd', 'NL', 'e']);
  const d = r.tokens.find((x) => x.image === 'd')!;
  t.is(d.startLine, 4);
  t.is(d.startColumn, 1);
  t.is(r.tokens.find((x) => x.image === 'e')!.startLine, 5);
});

test('columns and lines are 1-based', (t) => {
  const [a, , b] = lexGlsl('  foo\n\tbar').tokens;
  t.like(a, { image: 'foo', startLine: 1, startColumn: 3 });
  t.like(b, { image: 'bar', startLine: 2, startColumn: 2 });
});

test('every word lexes as an identifier; classifyWord picks keyword and type tokens afterwards', (t) => {
  t.true(lexGlsl('struct vec3 foo').tokens.every((x) => x.tokenType === Identifier));
  t.is(classifyWord('struct'), Struct);
  t.is(classifyWord('void'), Void);
  t.is(classifyWord('rayPayloadEXT'), StorageQualifier);
  t.is(classifyWord('readonly'), MemoryQualifier);
  for (const ty of ['vec3', 'uint64_t', 'i64vec3', 'u64vec2', 'float16_t', 'f16vec4', 'mat3x4', 'dmat4', 'image2D', 'uimage2D',
    'sampler2DArray', 'samplerCube', 'texture2D', 'sampler', 'accelerationStructureEXT', 'usubpassInput', 'sampler2DShadow']) {
    t.is(classifyWord(ty), BuiltinType, ty);
  }
  t.is(classifyWord('vec5'), Identifier);
  t.is(classifyWord('myVar'), Identifier);
});

test('int and float token types are distinct from identifiers with digits', (t) => {
  const toks = lexGlsl('x1 1x').tokens;
  t.is(toks[0]!.tokenType, Identifier);
  t.is(toks[1]!.tokenType, IntLiteral);
  t.is(toks[2]!.tokenType, Identifier);
  t.is(lexGlsl('1.0').tokens[0]!.tokenType, FloatLiteral);
});

test('unexpected characters and unterminated comments are reported with their position', (t) => {
  t.deepEqual(lexGlsl('a @ b').errors, [{ line: 1, column: 3, message: "unexpected character '@'" }]);
  const r = lexGlsl('int a;\n/* never closed\nint b;');
  t.deepEqual(r.errors, [{ line: 2, column: 1, message: 'unterminated /* comment' }]);
  t.deepEqual(r.tokens.map((x) => x.image).filter((x) => x.trim() !== ''), ['int', 'a', ';']);
});
