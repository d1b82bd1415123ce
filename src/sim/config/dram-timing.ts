/**
 * The GPGPU-Sim DRAM timing string `nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:...`.
 * All values are DRAM command-clock cycles; unknown fields are an error naming the field.
 */
import { ConfigError, closestName } from './config-error.js';

export interface DramTiming {
  /** Banks per chip. */
  nbk: number;
  CCD: number;
  RRD: number;
  RCD: number;
  RAS: number;
  RP: number;
  RC: number;
  CL: number;
  WL: number;
  CDLR: number;
  WR: number;
  nbkgrp: number;
  CCDL: number;
  RTPL: number;
}

const FIELDS = ['nbk', 'CCD', 'RRD', 'RCD', 'RAS', 'RP', 'RC', 'CL', 'WL', 'CDLR', 'WR', 'nbkgrp', 'CCDL', 'RTPL'] as const;
const REQUIRED = ['nbk', 'CCD', 'RCD', 'RAS', 'RP', 'CL'] as const;

export function parseDramTiming(text: string, key: string): DramTiming {
  const t: Record<string, number> = { nbk: 16, CCD: 2, RRD: 6, RCD: 12, RAS: 28, RP: 12, RC: 40, CL: 12, WL: 4, CDLR: 5, WR: 12, nbkgrp: 1, CCDL: 0, RTPL: 0 };
  const seen = new Set<string>();
  for (const part of text.replace(/^"|"$/g, '').split(':')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) throw new ConfigError(`${key}: "${part}" is not field=value`, key);
    const name = part.slice(0, eq).trim();
    const value = Number(part.slice(eq + 1));
    if (!(FIELDS as readonly string[]).includes(name)) {
      throw new ConfigError(`${key}: unknown DRAM timing field "${name}" (did you mean "${closestName(name, FIELDS)}"?)`, key);
    }
    if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${key}: ${name}=${part.slice(eq + 1)} is not a non-negative integer`, key);
    t[name] = value;
    seen.add(name);
  }
  for (const r of REQUIRED) if (!seen.has(r)) throw new ConfigError(`${key}: DRAM timing is missing ${r}=`, key);
  if (t.nbk! < 1) throw new ConfigError(`${key}: nbk must be at least 1`, key);
  return t as unknown as DramTiming;
}
