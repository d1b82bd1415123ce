/**
 * Independent thread scheduling against the SIMT stack (Vulkan-Sim IV-B / VI-F, V-Vision Fig. 11)
 * on the built-in RT workloads, `mobile` preset: simulated cycles, issued warp instructions, SIMT
 * efficiency of the issued instructions, the `its` utility's pipeline exit/entry (functional run),
 * and wall time of the timing run. Images are compared byte for byte.
 * Run: npx tsx bench/its.ts [width] [height]
 */
import { instrumentWorkload } from '../src/driver/instrument-workload.js';
import { simulateWorkload } from '../src/driver/simulate-workload.js';
import { loadNote } from './machine-load.js';

const width = Number(process.argv[2] ?? 64);
const height = Number(process.argv[3] ?? 32);
const row = (cells: (string | number)[]) => console.log(cells.map((c) => String(c).padStart(12)).join(''));

async function main(): Promise<void> {
  console.log(`ITS vs SIMT stack, ${width}x${height}, 1 spp, mobile`);
  row(['workload', 'mode', 'cycles', 'warp insts', 'SIMT eff', 'exit/entry', 'wall ms', 'same image']);
  for (const w of ['tri', 'ao', 'pt', 'rtv6', 'cornell', 'call']) {
    let ref: Buffer | undefined;
    for (const its of [false, true]) {
      const opts = { width, height, spp: 1, its };
      const sim = await simulateWorkload(w, { ...opts, config: 'mobile' });
      const ev = (await instrumentWorkload(w, 'its', opts)).results.its?.[0]?.evidence.exitPerEntry ?? NaN;
      const v = sim.stats.values;
      const image = Buffer.from(sim.prepared.host.output!.levels[0]!.data.buffer);
      ref ??= image;
      row([w, its ? 'its' : 'ipdom', v.gpu_sim_cycle!, v.gpu_warp_insn!, (v.gpu_simt_efficiency! / 100).toFixed(3), ev.toFixed(3), sim.wallMs.toFixed(0), String(image.equals(ref))]);
    }
  }
}

await main();
console.log(`(wall ms taken at ${loadNote()})`);
