/**
 * The native Vulkan host (native/vvision-host.c): built on first use with the system's C compiler
 * against the system's Vulkan headers (no vendored SDK; the loader is opened at run time), cached
 * under build/native/ beside the source tree, rebuilt when the source is newer. Running it needs a
 * Vulkan loader and a device with VK_KHR_ray_tracing_pipeline (a GPU, or Mesa's lavapipe on the CPU).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** No compiler, no Vulkan headers, no loader or no ray tracing device: the device backend cannot run here. */
export class DeviceUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeviceUnavailableError';
  }
}

/** The host failed while running a bundle (a Vulkan call failed, a malformed bundle). */
export class DeviceRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeviceRunError';
  }
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const HOST_SOURCE = join(ROOT, 'native', 'vvision-host.c');
/** Exit status of the host when there is no loader or no ray tracing device. */
const EXIT_NO_DEVICE = 3;
/** Exit status of the host when a submission did not finish within `--timeout` seconds. */
const EXIT_TIMEOUT = 4;
/** Seconds the host waits for one submission (a launch that never ends is stopped, not waited for). */
export const DEFAULT_HOST_TIMEOUT_S = 60;

/** A launch did not finish within the host's timeout (a shader that never ends, or a hung GPU). */
export class DeviceTimeoutError extends DeviceRunError {
  constructor(message: string) {
    super(message);
    this.name = 'DeviceTimeoutError';
  }
}

/** Path of the built host, building it when missing or older than its source. `VVISION_DEVICE_HOST` names a prebuilt one. */
export function nativeHost(): string {
  const given = process.env.VVISION_DEVICE_HOST;
  if (given) {
    if (!existsSync(given)) throw new DeviceUnavailableError(`VVISION_DEVICE_HOST=${given}: no such file`);
    return given;
  }
  const out = join(process.env.VVISION_BUILD_DIR ?? join(ROOT, 'build'), 'native', 'vvision-host');
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(HOST_SOURCE).mtimeMs) return out;
  mkdirSync(dirname(out), { recursive: true });
  const cc = process.env.CC ?? ['cc', 'gcc', 'clang'].find((c) => spawnSync(c, ['--version'], { stdio: 'ignore' }).status === 0);
  if (!cc) throw new DeviceUnavailableError('no C compiler (cc, gcc or clang) to build the native Vulkan host; install one (Debian: gcc)');
  const include = process.env.VULKAN_INCLUDE ? [`-I${process.env.VULKAN_INCLUDE}`] : [];
  const r = spawnSync(cc, ['-O2', '-std=c11', '-D_GNU_SOURCE', ...include, '-o', `${out}.tmp`, HOST_SOURCE, '-ldl'], { encoding: 'utf8' });
  if (r.status !== 0) {
    if (/vulkan\/vulkan\.h/.test(r.stderr)) throw new DeviceUnavailableError('no Vulkan headers (vulkan/vulkan.h) to build the native host; install them (Debian: libvulkan-dev) or set VULKAN_INCLUDE');
    throw new DeviceUnavailableError(`building the native Vulkan host failed:\n${r.stderr}`);
  }
  spawnSync('mv', [`${out}.tmp`, out]);
  return out;
}

export interface HostRunOptions {
  /** Index among the ray tracing devices (`vvision device --list`). */
  device?: number;
  /** Trace dispatches timed; the first one's outputs are kept. */
  repeat?: number;
  /** Enable VK_LAYER_KHRONOS_validation and count its messages. */
  validate?: boolean;
  /** Seconds to wait for one submission before giving up (default DEFAULT_HOST_TIMEOUT_S). */
  timeoutS?: number;
}

/** Runs a bundle; the host writes its outputs into `outDir`. Returns the host's stdout line. */
export function runNativeHost(bundleDir: string, outDir: string, opts: HostRunOptions = {}): string {
  const host = nativeHost();
  mkdirSync(outDir, { recursive: true });
  const args = [
    ...(opts.device !== undefined ? ['--device', String(opts.device)] : []), '--repeat', String(opts.repeat ?? 5),
    '--timeout', String(opts.timeoutS ?? DEFAULT_HOST_TIMEOUT_S), ...(opts.validate ? ['--validate'] : []), bundleDir, outDir,
  ];
  // The driver may not let a process whose launch hung exit: killed some time after the host's own timeout.
  const killAfterMs = ((opts.timeoutS ?? DEFAULT_HOST_TIMEOUT_S) + 30) * 1000;
  const r = spawnSync(host, args, { encoding: 'utf8', maxBuffer: 64 << 20, timeout: killAfterMs, killSignal: 'SIGKILL' });
  if (r.status === EXIT_NO_DEVICE) throw new DeviceUnavailableError(r.stderr.trim().replace(/^vvision-host: /, ''));
  if (r.status === EXIT_TIMEOUT || (r.signal === 'SIGKILL' && /did not finish/.test(r.stderr))) {
    throw new DeviceTimeoutError(r.stderr.trim().replace(/^vvision-host: /, ''));
  }
  if (r.error && r.signal === 'SIGKILL') {
    throw new DeviceTimeoutError(`the native Vulkan host did not exit within ${killAfterMs / 1000} s and was killed (a launch that never ends, or a hung GPU)`);
  }
  if (r.status !== 0) throw new DeviceRunError(`the native Vulkan host failed (status ${r.status ?? r.signal}): ${r.stderr.trim()}`);
  if (r.stderr.trim()) process.stderr.write(r.stderr);
  return r.stdout.trim();
}

/** The ray tracing devices the host sees, one line each (`N: name (Vulkan x.y)`). */
export function listDevices(): string[] {
  const r = spawnSync(nativeHost(), ['--list'], { encoding: 'utf8' });
  if (r.status === EXIT_NO_DEVICE && !r.stdout.trim()) throw new DeviceUnavailableError(r.stderr.trim().replace(/^vvision-host: /, ''));
  return r.stdout.trim().split('\n').filter((l) => l.length > 0);
}
