/**
 * `vvision device run|instrument|list`: the workload's own pipeline on a real Vulkan device (a GPU
 * or Mesa's lavapipe) through the native host (src/device), writing the same run directory as
 * `vvision run` / `vvision instrument`. Without a compiler, Vulkan headers, loader or ray tracing
 * device, it says which is missing and exits 1.
 */
import type { Command } from 'commander';
import type { DeviceRunOptions } from '../../device/device-run.js';
import { INSTRUMENTATION_MODES } from '../../primitives/buffer-layout.js';
import { DEFAULT_WORKLOAD } from '../../sim/workload/default-workload.js';
import type { Utility } from '../../utilities/utility.js';
import { checkOutputTarget, OutputDir } from '../output-dir.js';
import { addRunOptions, parseRunOptions, type RawRunOptions } from '../run-options.js';
import { CliUsageError } from '../user-errors.js';

interface RawDeviceOptions extends RawRunOptions {
  device?: string;
  repeat: string;
  timeout: string;
  validate?: boolean;
  keepAlpha?: boolean;
  keepBundle?: string;
  mode?: string;
  utility: string[];
  bufferSize: string;
  analyseFrame?: string;
}

function deviceOptions(cmd: Command): Command {
  return addRunOptions(cmd)
    .option('--device <n>', 'index among the ray tracing devices (vvision device list)')
    .option('--repeat <n>', 'trace dispatches timed (median reported); the first one\'s outputs are kept', '5')
    .option('--timeout <s>', 'seconds to wait for one launch before stopping with an error (a shader that never ends, or a hung GPU)', '60')
    .option('--validate', 'enable VK_LAYER_KHRONOS_validation and count its messages (device.json)')
    .option('--keep-alpha', 'write the shader\'s alpha into image.png (default: opaque)')
    .option('--keep-bundle <dir>', 'keep the device bundle and the host\'s raw outputs in this directory');
}

function parseDeviceOptions(raw: RawDeviceOptions): DeviceRunOptions {
  const out: DeviceRunOptions = { ...parseRunOptions(raw) };
  const repeat = Number(raw.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) throw new CliUsageError(`--repeat: expected a count >= 1, got '${raw.repeat}'`);
  out.repeat = repeat;
  const timeoutS = Number(raw.timeout);
  if (!Number.isInteger(timeoutS) || timeoutS < 1) throw new CliUsageError(`--timeout: expected whole seconds >= 1, got '${raw.timeout}'`);
  out.timeoutS = timeoutS;
  if (raw.device !== undefined) {
    const n = Number(raw.device);
    if (!Number.isInteger(n) || n < 0) throw new CliUsageError(`--device: expected a device index >= 0, got '${raw.device}'`);
    out.device = n;
  }
  if (raw.validate) out.validate = true;
  if (raw.keepBundle !== undefined) out.keepBundle = raw.keepBundle;
  if (out.mapping !== undefined || out.its || out.fcc) {
    process.stderr.write('note: --mapping, --its and --fcc choose simulator behaviour; a device schedules its own warps\n');
  }
  return out;
}

export function registerDeviceCommand(program: Command): void {
  const device = program.command('device').description('run a workload\'s pipeline on a real Vulkan device (GPU or lavapipe) and write the same run directory as the simulator');
  device.command('list').description('list the Vulkan devices with ray tracing pipelines')
    .option('--json', 'print the devices as a JSON array')
    .action(async (opts: { json?: boolean }) => {
      const { listDevices } = await import('../../device/native-host.js');
      const devices = listDevices();
      process.stdout.write(opts.json ? `${JSON.stringify(devices, null, 2)}\n` : `${devices.join('\n')}\n`);
    });
  deviceOptions(device.command('run').description('run the uninstrumented pipeline on the device: image.png, stats.json (median trace time), device.json')
    .argument('[workload]', 'built-in workload name or path to a workload.json', DEFAULT_WORKLOAD))
    .action(async (workload: string, raw: RawDeviceOptions) => {
      const { launchOnDevice } = await import('../../device/device-run.js');
      const { saveDeviceRun } = await import('../../device/device-run-dir.js');
      if (raw.out !== undefined) checkOutputTarget(raw.out);
      const opts = parseDeviceOptions(raw);
      const l = await launchOnDevice(workload, undefined, opts);
      const out = new OutputDir(raw.out ?? `vvision-out/${l.prepared.manifest.name}-device`);
      try {
        saveDeviceRun(out, l, { keepAlpha: raw.keepAlpha === true });
        const dir = out.commit();
        if (raw.json) {
          process.stdout.write(`${JSON.stringify({ workload: l.prepared.manifest.name, params: l.prepared.params, out: dir, device: l.info }, null, 2)}\n`);
          return;
        }
        process.stdout.write(`${l.prepared.manifest.name} ${l.prepared.params.width}x${l.prepared.params.height} on ${l.info.device}: median trace ${l.info.medianTraceMs.toFixed(3)} ms (${l.info.traceMs.length} ${l.frames ? 'frames' : 'runs'}), subgroup size ${l.info.ranSubgroupSize}\nwrote ${dir}\n`);
      } catch (e) {
        out.abandon();
        throw e;
      }
    });
  deviceOptions(device.command('instrument').description('run the pipeline instrumented with V-Vision utilities on the device; analyse the device\'s dumps and write the report')
    .option('--mode <mode>', `built-in utility: ${[...INSTRUMENTATION_MODES, 'all'].join(' | ')}`)
    .option('--utility <file.ts>', 'a user utility file (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option('--buffer-size <words|auto>', 'instrumentation buffer size in 32-bit words; auto reruns once with the size the device needed plus a margin', 'auto')
    .option('--analyse-frame <n>', 'multi-frame runs: the frame (from 0) the utilities analyse and annotate; default the last (every frame\'s dump is saved)')
    .argument('[workload]', 'built-in workload name or path to a workload.json', DEFAULT_WORKLOAD))
    .action(async (workload: string, raw: RawDeviceOptions) => {
      const { launchOnDevice } = await import('../../device/device-run.js');
      const { saveDeviceInstrumentRun } = await import('../../device/device-run-dir.js');
      const { writeHtmlReport } = await import('../../report/write-report.js');
      const { BUILTIN_UTILITIES } = await import('../../utilities/builtin.js');
      const { loadUtilities } = await import('../../utilities/load-utility.js');
      if (raw.out !== undefined) checkOutputTarget(raw.out);
      if (raw.mode === undefined && raw.utility.length === 0) throw new CliUsageError('give --mode <utility> or --utility <file.ts> (or both)');
      const utilities: Utility[] = [];
      if (raw.mode === 'all') utilities.push(...Object.values(BUILTIN_UTILITIES));
      else if (raw.mode !== undefined) {
        const u = (BUILTIN_UTILITIES as Record<string, Utility | undefined>)[raw.mode];
        if (!u) throw new CliUsageError(`--mode: expected one of ${[...INSTRUMENTATION_MODES, 'all'].join(', ')}, got '${raw.mode}'`);
        utilities.push(u);
      }
      for (const f of raw.utility) utilities.push(...(await loadUtilities(f)));
      const bufferSize: number | 'auto' = raw.bufferSize === 'auto' ? 'auto' : Number(raw.bufferSize);
      if (bufferSize !== 'auto' && (!Number.isInteger(bufferSize) || bufferSize < 3)) throw new CliUsageError(`--buffer-size: expected 'auto' or a word count >= 3, got '${raw.bufferSize}'`);
      const analyseFrame = raw.analyseFrame === undefined ? undefined : Number(raw.analyseFrame);
      if (analyseFrame !== undefined && (!Number.isInteger(analyseFrame) || analyseFrame < 0)) throw new CliUsageError(`--analyse-frame: expected a frame index >= 0, got '${raw.analyseFrame}'`);
      const opts = { ...parseDeviceOptions(raw), bufferSize, ...(analyseFrame !== undefined ? { analyseFrame } : {}) };
      const launches = [];
      for (const utility of utilities) launches.push({ utility, launch: await launchOnDevice(workload, utility, opts) });
      const name = launches[0]!.launch.prepared.manifest.name;
      const mode = utilities.map((u) => u.name).join('+');
      const out = new OutputDir(raw.out ?? `vvision-out/${name}-device-${raw.mode === 'all' ? 'all' : mode}`);
      try {
        const data = saveDeviceInstrumentRun(out, launches, { keepAlpha: raw.keepAlpha === true });
        await writeHtmlReport(out, data);
        const dir = out.commit();
        const simt = data.results.simt?.overall;
        const info = launches[0]!.launch.info;
        if (raw.json) {
          process.stdout.write(`${JSON.stringify({
            workload: name, mode, out: dir, report: `${dir}/index.html`, device: info.device, subgroupSize: info.ranSubgroupSize,
            simt: simt ?? null,
            utilities: launches.map(({ utility, launch }) => ({
              utility: utility.name, entries: launch.dump!.entryCount, bufferWords: launch.bufferWords, rerunFrom: launch.rerunFrom ?? null,
              medianTraceMs: launch.info.medianTraceMs,
            })),
          }, null, 2)}\n`);
          return;
        }
        const lines = [`${name}: instrumented with ${mode} on ${info.device} (subgroup size ${info.ranSubgroupSize})`];
        if (simt) lines.push(`  SIMT efficiency ${(simt.instructionEfficiency * 100).toFixed(1)}% (instruction-weighted), ${(simt.efficiency * 100).toFixed(1)}% per block execution`);
        for (const { utility, launch } of launches) lines.push(`  ${utility.name}: ${launch.dump!.entryCount} entries, ${launch.bufferWords} buffer words${launch.rerunFrom ? ` (rerun; ${launch.rerunFrom} was too small)` : ''}, median trace ${launch.info.medianTraceMs.toFixed(3)} ms`);
        lines.push(`report: ${dir}/index.html`);
        process.stdout.write(`${lines.join('\n')}\n`);
      } catch (e) {
        out.abandon();
        throw e;
      }
    });
}
