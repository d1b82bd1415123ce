/**
 * The values a config implies, for the microbenchmarks' expected figures and the sensitivity
 * study: every key of a gpgpusim.config file as written (also the keys the model ignores today,
 * such as dram_data_command_freq_ratio or gpgpu_mem_addr_mapping), with the parsed GpuConfig's
 * raw text winning for the keys it declares (so `--set` overrides count). A key in neither takes
 * GPGPU-Sim's own default (GPGPU_SIM_DEFAULTS, from gpgpu-sim's option registrations), so an
 * expected figure never depends on what this model happens to implement.
 */
import { existsSync, readFileSync } from 'node:fs';
import { PRESETS, presetPath, type GpuConfig } from '../../src/sim/config/gpu-config.js';

/** GPGPU-Sim defaults of the ignored keys the expected figures read (gpu-sim.cc / shader.cc option registrations). */
const GPGPU_SIM_DEFAULTS: Record<string, string> = {
  dram_data_command_freq_ratio: '2',
  gpgpu_l1_banks: '1',
  gpgpu_l1_banks_byte_interleaving: '32',
  gpgpu_l1_banks_hashing_function: '0',
  gpgpu_mem_addr_mapping: '',
  gpgpu_perfect_inst_const_cache: '0',
  network_mode: '1',
  gpgpu_reg_file_port_throughput: '1',
  ptx_opcode_initiation_fp: '1,2,1,1,4',
  ptx_opcode_latency_fp: '4,13,4,5,39',
};

/** The file a preset name or path stands for. */
export function configFile(presetOrPath: string): string {
  return (PRESETS as readonly string[]).includes(presetOrPath) ? presetPath(presetOrPath) : presetOrPath;
}

/** `-key value` lines of a gpgpusim.config (comments stripped, quoted values joined across lines). */
export function readConfigKeys(path: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(path)) return out;
  const lines = readFileSync(path, 'utf8').split(/\r?\n/);
  const strip = (l: string): string => {
    let q = false;
    for (let i = 0; i < l.length; i++) {
      if (l[i] === '"') q = !q;
      else if (l[i] === '#' && !q) return l.slice(0, i);
    }
    return l;
  };
  for (let i = 0; i < lines.length; i++) {
    let line = strip(lines[i]!).trim();
    while ((line.split('"').length - 1) % 2 === 1 && i + 1 < lines.length) line += strip(lines[++i]!).trim();
    const m = /^-?(\S+)\s+(.*)$/.exec(line);
    if (m) out.set(m[1]!, m[2]!.trim().replace(/^"(.*)"$/, '$1'));
  }
  return out;
}

export class ConfigValues {
  private readonly file: Map<string, string>;

  constructor(readonly config: GpuConfig, presetOrPath: string) {
    this.file = readConfigKeys(configFile(presetOrPath));
  }

  /** The key's text: the parsed config's (declared keys, overrides included), else the file's, else GPGPU-Sim's default. */
  text(key: string): string {
    const v = this.config.raw[key] ?? this.file.get(key) ?? GPGPU_SIM_DEFAULTS[key];
    if (v === undefined) throw new Error(`microbench: no value and no GPGPU-Sim default known for ${key}`);
    return v;
  }

  num(key: string): number {
    const n = Number(this.text(key));
    if (!Number.isFinite(n)) throw new Error(`microbench: ${key} = "${this.text(key)}" is not a number`);
    return n;
  }

  list(key: string): number[] {
    return this.text(key).split(',').map((s) => Number(s.trim()));
  }

  /** Field of a `a=1:b=2` string such as gpgpu_dram_timing_opt. */
  field(key: string, name: string): number {
    for (const part of this.text(key).replace(/\s+/g, '').split(':')) {
      const [k, v] = part.split('=');
      if (k === name) return Number(v);
    }
    throw new Error(`microbench: ${key} has no field ${name}`);
  }

  /** core:icnt:l2:dram MHz. */
  clocks(): { core: number; icnt: number; l2: number; dram: number } {
    const [core, icnt, l2, dram] = this.text('gpgpu_clock_domains').split(':').map(Number);
    return { core: core!, icnt: icnt!, l2: l2!, dram: dram! };
  }
}
