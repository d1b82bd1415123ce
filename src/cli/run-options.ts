/**
 * The run options shared by `vvision run`, `instrument` and `sim`: which workload and how big a
 * frame. Parsing and range checks live here so every command reports bad values the same way.
 */
import type { Command } from 'commander';
import type { RunOptions } from '../driver/run-workload.js';
import { CliUsageError } from './user-errors.js';
import { LAUNCH_MAPPINGS, NVIDIA_BEHAVIOUR, type LaunchMapping } from '../sim/functional/warp-mapping.js';
import { DEFAULT_MEMORY_BUDGET_BYTES } from '../sim/workload/launch-limits.js';

export interface RawRunOptions {
  width?: string;
  height?: string;
  spp?: string;
  seed?: string;
  bounces?: string;
  mapping?: string;
  nvidia?: boolean;
  fcc?: boolean;
  its?: boolean;
  floatModel?: string;
  itsPolicy?: string;
  push?: string[];
  frames?: string;
  frameRange?: string;
  memoryBudget?: string;
  out?: string;
  json?: boolean;
}

export function addRunOptions(cmd: Command): Command {
  return cmd
    .option('--width <n>', 'launch width in pixels (default: the manifest\'s)')
    .option('--height <n>', 'launch height in pixels (default: the manifest\'s)')
    .option('--spp <n>', 'samples per pixel')
    .option('--bounces <n>', 'maximum path length')
    .option('--seed <n>', 'random seed')
    .option('--frames <n>', 'trace-rays launches to run back to back, one per frame, over the same device memory (default: the manifest\'s frames, else 1)')
    .option('--frame-range <first..last>', 'multi-frame runs: measure frames first..last (from 0); earlier frames are fast-forwarded on the functional core (their memory effects kept, no statistics or timing)')
    .option('--mapping <rows|tiles4x8|nvidia>', 'launch-to-warp mapping: Vulkan-Sim rows (default), always 4x8 tiles, or NVIDIA\'s tiles by launch height as an H100 runs them (16x2 up to height 2, 8x4 up to 4, then 4x8; 8x4 for heights 4 mod 8)')
    .option('--nvidia', 'NVIDIA hardware behaviour as measured on an H100: --mapping nvidia --its --its-policy barriers (an explicit --mapping or --its-policy wins)')
    .option('--fcc', 'function call coalescing: one intersection / any-hit shader per iteration for the whole warp (Vulkan-Sim Algorithm 3)')
    .option('--its', 'independent thread scheduling: warp splits run and leave independently instead of reconverging on the SIMT stack (Vulkan-Sim IV-B)')
    .option('--its-policy <barriers|barriers-all|merge>', 'with --its: convergence barriers at post-dominators except across a traceRay (barriers, NVIDIA\'s, default), at every divergent branch (barriers-all: its_reconverge_after_trace), or none, merging splits that meet (merge, the earlier model)')
    .option('--push <name=value>', 'set a push-constant member for this run (repeatable), e.g. --push shape=2', (v: string, prev: string[] = []) => [...prev, v])
    .option('--float-model <ieee|gpu>', 'float division, normalize and pow exactly rounded (ieee) or as GPU compilers lower them (gpu: rcp, rsq, exp2/log2); default: the manifest\'s floatModel, else ieee')
    .option('--memory-budget <GiB>', `refuse a launch whose simulation needs more memory than this (estimated before anything runs; default ${DEFAULT_MEMORY_BUDGET_BYTES / 2 ** 30})`)
    .option('--out <dir>', 'output directory')
    .option('--json', 'print the results as JSON on stdout (the summary the text form prints, and the output directory)');
}

function intOption(name: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new CliUsageError(`--${name}: expected an integer in [${min}, ${max}], got '${v}'`);
  return n;
}

export function parseRunOptions(raw: RawRunOptions): RunOptions {
  const out: RunOptions = {};
  const width = intOption('width', raw.width, 1, 16384);
  const height = intOption('height', raw.height, 1, 16384);
  const spp = intOption('spp', raw.spp, 1, 1 << 16);
  const bounces = intOption('bounces', raw.bounces, 0, 1024);
  const seed = intOption('seed', raw.seed, 0, 2 ** 32 - 1);
  const frames = intOption('frames', raw.frames, 1, 100000);
  if (frames !== undefined) out.frames = frames;
  if (raw.frameRange !== undefined) {
    const m = /^(\d+)\.\.(\d+)$/.exec(raw.frameRange);
    if (!m || Number(m[1]) > Number(m[2])) throw new CliUsageError(`--frame-range: expected first..last with first <= last, e.g. 2..4, got '${raw.frameRange}'`);
    const last = Number(m[2]);
    if (frames !== undefined && frames !== last + 1) throw new CliUsageError(`--frame-range ${raw.frameRange} ends at frame ${last}, but --frames ${frames} runs frames 0..${frames - 1}; give one of them`);
    out.firstFrame = Number(m[1]);
    out.frames = last + 1;
  }
  if (width !== undefined) out.width = width;
  if (height !== undefined) out.height = height;
  if (spp !== undefined) out.spp = spp;
  if (bounces !== undefined) out.bounces = bounces;
  if (seed !== undefined) out.seed = seed;
  if (raw.memoryBudget !== undefined) {
    const gib = Number(raw.memoryBudget);
    if (!(gib > 0 && gib <= 1024)) throw new CliUsageError(`--memory-budget: expected a number of GiB in (0, 1024], got '${raw.memoryBudget}'`);
    out.memoryBudgetBytes = Math.round(gib * 2 ** 30);
  }
  if (raw.fcc) out.fcc = true;
  if (raw.its) out.its = true;
  if (raw.push !== undefined) {
    out.push = {};
    for (const kv of raw.push) {
      const m = /^([A-Za-z_]\w*)=(-?\d+(\.\d+)?)$/.exec(kv);
      if (!m) throw new CliUsageError(`--push: expected name=number, got '${kv}'`);
      out.push[m[1]!] = Number(m[2]);
    }
  }
  if (raw.itsPolicy !== undefined) {
    if (!['barriers', 'barriers-all', 'merge'].includes(raw.itsPolicy)) throw new CliUsageError(`--its-policy: expected barriers, barriers-all or merge, got '${raw.itsPolicy}'`);
    out.itsPolicy = raw.itsPolicy as RunOptions['itsPolicy'];
  }
  if (raw.floatModel !== undefined) {
    if (raw.floatModel !== 'ieee' && raw.floatModel !== 'gpu') throw new CliUsageError(`--float-model: expected ieee or gpu, got '${raw.floatModel}'`);
    out.floatModel = raw.floatModel;
  }
  if (raw.nvidia) {
    out.mapping = NVIDIA_BEHAVIOUR.mapping;
    out.its = NVIDIA_BEHAVIOUR.its;
    out.itsPolicy ??= NVIDIA_BEHAVIOUR.itsPolicy;
  }
  if (raw.mapping !== undefined) {
    if (!(LAUNCH_MAPPINGS as readonly string[]).includes(raw.mapping)) throw new CliUsageError(`--mapping: expected ${LAUNCH_MAPPINGS.join(', ')}, got '${raw.mapping}'`);
    out.mapping = raw.mapping as LaunchMapping;
  }
  return out;
}
