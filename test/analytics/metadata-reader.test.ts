import test from 'ava';
import { MetadataFormatError, parseMetadata } from '../../src/analytics/metadata-reader.js';
import { FixtureMeta } from './dump-fixture.js';

function fixtureJson(): string {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  f.site({ kind: 'block', shader: rg, insts: 2 });
  f.site({ kind: 'warpId', shader: rg });
  f.meta.modes.push('simt');
  return JSON.stringify(f.meta);
}

test('a metadata.json written by the passes reads back unchanged', (t) => {
  const text = fixtureJson();
  t.deepEqual(parseMetadata(text), JSON.parse(text));
});

test('problems name the file and the offending key', (t) => {
  const bad = (edit: (m: any) => void) => {
    const m = JSON.parse(fixtureJson());
    edit(m);
    return t.throws(() => parseMetadata(JSON.stringify(m), 'runs/simt/metadata.json'), { instanceOf: MetadataFormatError })!.message;
  };
  t.is(bad((m) => (m.sites[1].id = 7)), 'runs/simt/metadata.json: sites[1].id: inst ids must equal their index: expected 1, got 7');
  t.is(bad((m) => (m.sites[0].kind = 'not a kind')), 'runs/simt/metadata.json: sites[0].kind: unknown site kind "not a kind"');
  t.is(bad((m) => (m.sites[0].entryWords = 4)), 'runs/simt/metadata.json: sites[0].entryWords: 4 words but 3 field names');
  t.is(bad((m) => (m.sites[0].shader = 3)), 'runs/simt/metadata.json: sites[0].shader: shader 3 does not exist (1 shaders)');
  t.is(bad((m) => (m.layout.firstEntryWord = 4)), "runs/simt/metadata.json: layout.firstEntryWord: this vvision's buffer layout has 2, the file says 4");
  t.is(bad((m) => (m.version = 2)), 'runs/simt/metadata.json: version: this vvision reads version 1, got 2');
  t.regex(t.throws(() => parseMetadata('{', 'm.json'))!.message, /^m\.json: \(file\): not valid JSON/);
});

test('#include file indices are checked against the shader file list', (t) => {
  const f = new FixtureMeta();
  const ch = f.shader('closestHit', 'ch', 'main text');
  const inc = f.include(ch, 'common.glsl', 'common text');
  f.site({ kind: 'block', shader: ch, insts: 2, lines: [1, 2], files: [0, inc], file: 'common.glsl' });
  const text = JSON.stringify(f.meta);
  t.deepEqual(parseMetadata(text), JSON.parse(text));
  const bad = (edit: (m: any) => void) => {
    const m = JSON.parse(text);
    edit(m);
    return t.throws(() => parseMetadata(JSON.stringify(m), 'metadata.json'), { instanceOf: MetadataFormatError })!.message;
  };
  t.is(bad((m) => (m.shaders[0].cfg[0].blocks[0].files = [0, 2])), 'metadata.json: shaders[0].cfg[0].blocks[0].files[1]: file 2 does not exist (2 file(s) in shaders[0].files)');
  t.is(bad((m) => (m.shaders[0].cfg[0].blocks[0].files = [0])), 'metadata.json: shaders[0].cfg[0].blocks[0].files: must have one file index per opcode');
  t.is(bad((m) => delete m.shaders[0].files[1].text), 'metadata.json: shaders[0].files[1].text: expected a string, got undefined');
});
