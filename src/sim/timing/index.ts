/**
 * Public surface of the timing model: `simulate` drives warps from the functional core through
 * the cycle-level GPU; `loadConfig` reads presets / gpgpusim.config files; `formatStats` prints
 * the Vulkan-Sim style dump; `TimelineRecorder` (passed as `simulate`'s `timeline` option) and
 * `timelineJson` record the warp timeline and write it as Chrome trace-event JSON.
 */
export { simulate, Gpu, type SimulateOptions, type TimingWarp } from './gpu.js';
export { simulateFrames, type FrameSequenceOptions, type FrameSequenceStats, type FrameFlush } from './launch-sequence.js';
export { TimingDeadlockError } from './watchdog.js';
export { TimelineRecorder, DEFAULT_TIMELINE_MAX_EVENTS, type TimelineOptions, type TimelineSummary } from './timeline.js';
export { timelineJson, type TimelineMeta } from './timeline-json.js';
export { formatStats, STAT_META, type TimingStats } from './stats.js';
export { loadConfig, configFromText, PRESETS, type GpuConfig } from '../config/gpu-config.js';
export { formatConfig } from '../config/format-config.js';
export { ConfigError } from '../config/config-error.js';
