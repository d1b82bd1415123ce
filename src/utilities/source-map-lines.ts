/**
 * Maps a position of transpiled JavaScript back to the TypeScript it came from, from the source
 * map `ts.transpileModule` returns (one source): enough to report where in a user's utility file
 * an error was thrown, without turning on Node's process-wide source-map support.
 */
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeVlq(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = B64.indexOf(ch);
    if (digit < 0) return out;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    out.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return out;
}

/** 1-based generated (line, column) -> 1-based source (line, column), or undefined. */
export type PositionMapper = (line: number, column: number) => { line: number; column: number } | undefined;

export function sourceMapPositions(mapJson: string): PositionMapper {
  const map = JSON.parse(mapJson) as { mappings: string };
  // lines[g] = segments [generatedColumn, sourceLine, sourceColumn], all 0-based, sorted by column.
  const lines: [number, number, number][][] = [];
  let srcLine = 0;
  let srcCol = 0;
  for (const lineText of map.mappings.split(';')) {
    const segs: [number, number, number][] = [];
    let genCol = 0;
    for (const seg of lineText.split(',')) {
      if (seg === '') continue;
      const f = decodeVlq(seg);
      genCol += f[0] ?? 0;
      if (f.length >= 4) {
        srcLine += f[2]!;
        srcCol += f[3]!;
        segs.push([genCol, srcLine, srcCol]);
      }
    }
    lines.push(segs);
  }
  return (line, column) => {
    const segs = lines[line - 1];
    if (!segs || segs.length === 0) return undefined;
    let best = segs[0]!;
    for (const s of segs) if (s[0] <= column - 1) best = s;
    return { line: best[1] + 1, column: best[2] + 1 };
  };
}
