/**
 * Generated blocks in docs/ (issue 26 part 7): a figure that a script produces sits between
 *
 *   <!-- generated:NAME begin generator="npm run bench -- docs" commit=abc123def456 date=2025-01-31 -->
 *   ...
 *   <!-- generated:NAME end -->
 *
 * so a table no script produces is visible, and a test (test/docs/generated-blocks.test.ts)
 * checks that every block names its generator and the commit its runs were made at.
 */
export const BEGIN = /<!-- generated:([a-z0-9-]+) begin generator="([^"]+)" commit=([0-9a-f]{7,40}(?:-dirty-[0-9a-f]+)?) date=(\d{4}-\d{2}-\d{2}) -->/g;

export function generatedBegin(name: string, generator: string, commit: string, date = new Date().toISOString().slice(0, 10)): string {
  return `<!-- generated:${name} begin generator="${generator}" commit=${commit} date=${date} -->`;
}

export function generatedEnd(name: string): string {
  return `<!-- generated:${name} end -->`;
}

export interface GeneratedBlock {
  name: string;
  generator: string;
  commit: string;
  date: string;
}

/** The blocks of a markdown text; problems (a begin without end, an unreadable marker) as messages. */
export function findGeneratedBlocks(text: string): { blocks: GeneratedBlock[]; problems: string[] } {
  const blocks: GeneratedBlock[] = [];
  const problems: string[] = [];
  for (const m of text.matchAll(BEGIN)) {
    blocks.push({ name: m[1]!, generator: m[2]!, commit: m[3]!, date: m[4]! });
    if (!text.includes(generatedEnd(m[1]!), m.index)) problems.push(`generated:${m[1]} has no end marker`);
  }
  const begins = [...text.matchAll(/<!-- generated:([^ ]+) begin/g)].length;
  if (begins !== blocks.length) problems.push(`${begins - blocks.length} begin marker(s) without generator="..." commit=<hash> date=<yyyy-mm-dd>`);
  const ends = [...text.matchAll(/<!-- generated:([^ ]+) end -->/g)].length;
  if (ends !== begins) problems.push(`${ends} end marker(s) for ${begins} begin marker(s)`);
  return { blocks, problems };
}

/** The body of block `name` in `text` (between its markers), or undefined when the doc has no such block. */
export function generatedBlockBody(text: string, name: string): string | undefined {
  const begin = new RegExp(`<!-- generated:${name} begin[^>]*-->`).exec(text);
  if (begin === null) return undefined;
  const from = begin.index + begin[0].length;
  const end = text.indexOf(generatedEnd(name), from);
  return end < 0 ? undefined : text.slice(from, end);
}

/**
 * Replaces the body of block `name` in `text` with `body` (new begin marker, same place); the
 * block must already exist (a doc decides where its generated figures go).
 */
export function replaceGeneratedBlock(text: string, name: string, generator: string, commit: string, body: string): string {
  const start = text.search(new RegExp(`<!-- generated:${name} begin[^>]*-->`));
  const endMarker = generatedEnd(name);
  const end = text.indexOf(endMarker, start);
  if (start < 0 || end < 0) throw new Error(`no generated:${name} block (begin and end markers) in the document`);
  return `${text.slice(0, start)}${generatedBegin(name, generator, commit)}\n\n${body.trim()}\n\n${text.slice(end)}`;
}
