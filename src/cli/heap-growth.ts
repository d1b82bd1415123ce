/**
 * The vvision process's heap policy. After each full GC, V8 sets the next old-generation limit at
 * up to 4x the live heap. A timing-model run steadily promotes medium-lived garbage (per-ray
 * traversal records, warp steps: they outlive a scavenge), so its peak RSS was about 4x its live
 * heap: the WKND 128x128 2 spp frame peaked at ~800 MB with 70-140 MB live. A growth of 1.5x keeps
 * it at ~400 MB for no measurable CPU (a full GC of ~100 MB takes ~40 ms; issue 25.2). V8 reads
 * the flag at every full GC, so setting it once the process runs takes effect.
 */
import { setFlagsFromString } from 'node:v8';

/** Percent the old generation may grow past the live heap before the next full GC. */
export const HEAP_GROWING_PERCENT = 50;

export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
