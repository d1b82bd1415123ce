/**
 * Reads metadata.json (the static half of a V-Vision run, buffer-layout.ts's schema) back with
 * the checks a saved run directory needs: a hand-edited or foreign file is reported as
 * `path: key: what is wrong`, never as a crash deep inside an analysis.
 *
 * Invariant of an accepted file: it satisfies every invariant buffer-layout.ts states (ids equal
 * indices, entry sizes match field lists, shader indices in range, the same buffer layout).
 */
import {
  ENTRY_HEADER_WORDS,
  FIRST_ENTRY_WORD,
  BUILTIN_SITE_KINDS,
  NAME_PATTERN,
  PAYLOAD_TYPES,
  WARP_ID_COUNT_WORD,
  WORDS_WRITTEN_WORD,
  type InstrumentationMetadata,
} from '../primitives/buffer-layout.js';

export class MetadataFormatError extends Error {
  constructor(readonly path: string, readonly key: string, problem: string) {
    super(`${path}: ${key}: ${problem}`);
    this.name = 'MetadataFormatError';
  }
}

const STAGES = ['raygen', 'closestHit', 'miss', 'anyHit', 'intersection', 'callable', 'compute'];

type Json = Record<string, unknown>;

function isObject(x: unknown): x is Json {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function parseMetadata(text: string, path = 'metadata.json'): InstrumentationMetadata {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new MetadataFormatError(path, '(file)', `not valid JSON: ${(e as Error).message}`);
  }
  const fail = (key: string, problem: string): never => {
    throw new MetadataFormatError(path, key, problem);
  };
  const int = (x: unknown, key: string, min = 0): number =>
    typeof x === 'number' && Number.isInteger(x) && x >= min ? x : fail(key, `expected an integer >= ${min}, got ${JSON.stringify(x)}`);
  const str = (x: unknown, key: string): string => (typeof x === 'string' ? x : fail(key, `expected a string, got ${JSON.stringify(x)}`));
  const arr = (x: unknown, key: string): unknown[] => (Array.isArray(x) ? x : fail(key, 'expected an array'));

  if (!isObject(raw)) return fail('(file)', 'expected a JSON object');
  if (raw.format !== 'vvision-instrumentation-metadata') fail('format', `expected "vvision-instrumentation-metadata", got ${JSON.stringify(raw.format)}`);
  if (raw.version !== 1) fail('version', `this vvision reads version 1, got ${JSON.stringify(raw.version)}`);
  for (const [i, m] of arr(raw.modes, 'modes').entries()) {
    if (typeof m !== 'string' || !NAME_PATTERN.test(m)) fail(`modes[${i}]`, `expected a utility name (${NAME_PATTERN}), got ${JSON.stringify(m)}`);
  }
  const warpSize = int(raw.warpSize, 'warpSize', 1);
  if (warpSize > 32) fail('warpSize', `at most 32 lanes fit the one-word ballot payload, got ${warpSize}`);
  if (!isObject(raw.layout)) fail('layout', 'expected an object');
  const layout = raw.layout as Json;
  const expected: Record<string, number> = {
    warpIdCountWord: WARP_ID_COUNT_WORD, wordsWrittenWord: WORDS_WRITTEN_WORD, firstEntryWord: FIRST_ENTRY_WORD, entryHeaderWords: ENTRY_HEADER_WORDS,
  };
  for (const [k, v] of Object.entries(expected)) {
    if (layout[k] !== v) fail(`layout.${k}`, `this vvision's buffer layout has ${v}, the file says ${JSON.stringify(layout[k])}`);
  }
  const shaders = arr(raw.shaders, 'shaders');
  shaders.forEach((sh, i) => {
    const key = `shaders[${i}]`;
    if (!isObject(sh)) return fail(key, 'expected an object');
    if (sh.index !== i) fail(`${key}.index`, `expected ${i}, got ${JSON.stringify(sh.index)}`);
    str(sh.name, `${key}.name`);
    if (!STAGES.includes(sh.stage as string)) fail(`${key}.stage`, `unknown stage ${JSON.stringify(sh.stage)}`);
    str(sh.sourcePath, `${key}.sourcePath`);
    str(sh.sourceText, `${key}.sourceText`);
    const fileCount = sh.files === undefined ? 1 : arr(sh.files, `${key}.files`).length;
    if (sh.files !== undefined) {
      (sh.files as unknown[]).forEach((f, j) => {
        if (!isObject(f)) return fail(`${key}.files[${j}]`, 'expected an object');
        str(f.path, `${key}.files[${j}].path`);
        if (j > 0) str(f.text, `${key}.files[${j}].text`);
      });
    }
    arr(sh.cfg, `${key}.cfg`).forEach((f, j) => {
      if (!isObject(f)) return fail(`${key}.cfg[${j}]`, 'expected an object');
      str(f.name, `${key}.cfg[${j}].name`);
      arr(f.blocks, `${key}.cfg[${j}].blocks`).forEach((b, k) => {
        const bk = `${key}.cfg[${j}].blocks[${k}]`;
        if (!isObject(b)) return fail(bk, 'expected an object');
        int(b.id, `${bk}.id`);
        const ops = arr(b.opcodes, `${bk}.opcodes`);
        if (arr(b.lines, `${bk}.lines`).length !== ops.length) fail(`${bk}.lines`, 'must have one line per opcode');
        if (b.files !== undefined) {
          const files = arr(b.files, `${bk}.files`);
          if (files.length !== ops.length) fail(`${bk}.files`, 'must have one file index per opcode');
          files.forEach((f, n) => int(f, `${bk}.files[${n}]`) >= fileCount && fail(`${bk}.files[${n}]`, `file ${f as number} does not exist (${fileCount} file(s) in ${key}.files)`));
        }
        arr(b.successors, `${bk}.successors`);
      });
    });
  });
  arr(raw.sites, 'sites').forEach((s, i) => {
    const key = `sites[${i}]`;
    if (!isObject(s)) return fail(key, 'expected an object');
    if (s.id !== i) fail(`${key}.id`, `inst ids must equal their index: expected ${i}, got ${JSON.stringify(s.id)}`);
    if (!(BUILTIN_SITE_KINDS as readonly unknown[]).includes(s.kind) && !(typeof s.kind === 'string' && NAME_PATTERN.test(s.kind))) {
      fail(`${key}.kind`, `unknown site kind ${JSON.stringify(s.kind)}`);
    }
    const fields = arr(s.fields, `${key}.fields`);
    const words = int(s.entryWords, `${key}.entryWords`, ENTRY_HEADER_WORDS);
    if (fields.length !== words) fail(`${key}.entryWords`, `${words} words but ${fields.length} field names`);
    const shader = int(s.shader, `${key}.shader`);
    if (shader >= shaders.length) fail(`${key}.shader`, `shader ${shader} does not exist (${shaders.length} shaders)`);
    int(s.block, `${key}.block`);
    int(s.blockInstCount, `${key}.blockInstCount`);
    str(s.function, `${key}.function`);
    arr(s.blockLines, `${key}.blockLines`);
    if (!isObject(s.loc)) fail(`${key}.loc`, 'expected an object');
    if (s.payloadTypes !== undefined) {
      const types = arr(s.payloadTypes, `${key}.payloadTypes`);
      if (types.length !== words - ENTRY_HEADER_WORDS) fail(`${key}.payloadTypes`, `${types.length} types for ${words - ENTRY_HEADER_WORDS} payload words`);
      types.forEach((t, n) => (PAYLOAD_TYPES as readonly unknown[]).includes(t) || fail(`${key}.payloadTypes[${n}]`, `expected one of ${PAYLOAD_TYPES.join(', ')}, got ${JSON.stringify(t)}`));
    }
  });
  return raw as unknown as InstrumentationMetadata;
}
