/**
 * Why the device tests cannot run here (no C compiler, no Vulkan headers or loader, no device with
 * ray tracing pipelines), or undefined when they can: they skip with this reason instead of failing.
 */
import { DeviceUnavailableError, listDevices } from '../../src/device/native-host.js';

export function deviceUnavailable(): string | undefined {
  try {
    return listDevices().some((l) => /^\d+:/.test(l)) ? undefined : 'no Vulkan device with ray tracing pipelines';
  } catch (e) {
    if (e instanceof DeviceUnavailableError) return e.message;
    throw e;
  }
}
