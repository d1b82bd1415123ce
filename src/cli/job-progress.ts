/**
 * Progress of a parallel job list: one bar per running job under an overall bar, on a TTY only
 * (cli-progress); nothing in CI or when piped.
 */
import cliProgress from 'cli-progress';
import type { LocalRunOptions } from '../driver/jobs/local-backend.js';

export interface JobProgressDisplay extends Required<Pick<LocalRunOptions, 'onStart' | 'onProgress' | 'onFinish'>> {
  stop(): void;
}

export function jobProgressDisplay(total: number, label: (id: string) => string, stream: NodeJS.WriteStream = process.stderr): JobProgressDisplay {
  const live = stream.isTTY === true && !process.env.CI;
  if (!live) return { onStart() {}, onProgress() {}, onFinish() {}, stop() {} };
  const multi = new cliProgress.MultiBar(
    { stream, format: '{label} [{bar}] {percentage}%', hideCursor: true, clearOnComplete: true, barsize: 30 },
    cliProgress.Presets.shades_classic,
  );
  const overall = multi.create(total, 0, { label: 'all'.padEnd(28) });
  const bars = new Map<string, cliProgress.SingleBar>();
  return {
    onStart(id) {
      bars.set(id, multi.create(100, 0, { label: label(id).slice(0, 28).padEnd(28) }));
    },
    onProgress(id, f) {
      bars.get(id)?.update(Math.round(f * 100));
    },
    onFinish(id) {
      const bar = bars.get(id);
      if (bar) multi.remove(bar);
      bars.delete(id);
      overall.increment();
    },
    stop() {
      multi.stop();
    },
  };
}
