/**
 * debugPrintfEXT formatting and the per-lane output records. Conversions follow the
 * GL_EXT_debug_printf subset of C printf: %d %i %u %x %X %o %c %f %F %e %E %g %G %a %A %%, flags,
 * width and precision, `l` for 64-bit, and `%v<n><conv>` for vectors (components joined by ", ").
 */
export interface PrintfRecord {
  /** Shader source path, line, column of the debugPrintfEXT call. */
  file: string;
  line: number;
  column: number;
  fn: string;
  warp: number;
  lane: number;
  /** Linear launch index of the invocation. */
  thread: number;
  text: string;
}

function pad(s: string, width: number, left: boolean, zero: boolean): string {
  if (s.length >= width) return s;
  if (left) return s + ' '.repeat(width - s.length);
  if (zero) {
    const neg = s.startsWith('-') || s.startsWith('+');
    const body = neg ? s.slice(1) : s;
    return (neg ? s[0] : '') + '0'.repeat(width - s.length) + body;
  }
  return ' '.repeat(width - s.length) + s;
}

function convert(conv: string, v: number, prec: number | undefined, plus: boolean, alt: boolean): string {
  let s: string;
  switch (conv) {
    case 'd':
    case 'i':
      s = String(Math.trunc(v));
      break;
    case 'u':
      s = String(v < 0 ? v + 4294967296 : Math.trunc(v));
      break;
    case 'x':
    case 'X':
      s = (v < 0 ? v + 4294967296 : Math.trunc(v)).toString(16);
      if (conv === 'X') s = s.toUpperCase();
      if (alt) s = (conv === 'X' ? '0X' : '0x') + s;
      break;
    case 'o':
      s = (v < 0 ? v + 4294967296 : Math.trunc(v)).toString(8);
      break;
    case 'c':
      s = String.fromCharCode(v);
      break;
    case 'f':
    case 'F':
      s = Number.isFinite(v) ? v.toFixed(prec ?? 6) : String(v).replace('Infinity', 'inf');
      break;
    case 'e':
    case 'E': {
      s = v.toExponential(prec ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
      if (conv === 'E') s = s.toUpperCase();
      break;
    }
    case 'g':
    case 'G': {
      const p = prec === 0 ? 1 : (prec ?? 6);
      const exp = v === 0 ? 0 : Math.floor(Math.log10(Math.abs(v)));
      if (exp < -4 || exp >= p) s = v.toExponential(p - 1).replace(/\.?0+e/, 'e').replace(/e([+-])(\d)$/, 'e$10$2');
      else s = String(Number(v.toPrecision(p)));
      if (conv === 'G') s = s.toUpperCase();
      break;
    }
    case 'a':
    case 'A':
      s = v.toString(16);
      break;
    default:
      s = String(v);
  }
  if (plus && v >= 0 && 'dieEfFgG'.includes(conv)) s = '+' + s;
  return s;
}

/** Formats `format` with flattened argument leaves; `sizes[i]` = leaves of argument i. */
export function formatPrintf(format: string, leaves: readonly number[], sizes: readonly number[]): string {
  let out = '';
  let arg = 0;
  let leaf = 0;
  const re = /%([-+ #0]*)(\d+)?(?:\.(\d+))?(?:v([234]))?(l{0,2}|h{0,2})?([diuxXocfFeEgGaAs%])/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(format))) {
    out += format.slice(last, m.index);
    last = re.lastIndex;
    const conv = m[6]!;
    if (conv === '%') {
      out += '%';
      continue;
    }
    const flags = m[1] ?? '';
    const width = m[2] ? Number(m[2]) : 0;
    const prec = m[3] !== undefined ? Number(m[3]) : undefined;
    const n = m[4] ? Number(m[4]) : 1;
    const take = Math.min(n, sizes[arg] ?? n);
    const parts: string[] = [];
    for (let i = 0; i < take; i++) {
      const v = leaves[leaf + i] ?? 0;
      parts.push(pad(convert(conv, v, prec, flags.includes('+'), flags.includes('#')), width, flags.includes('-'), flags.includes('0')));
    }
    leaf += sizes[arg] ?? take;
    arg++;
    out += parts.join(', ');
  }
  return out + format.slice(last);
}
