import { loadManifest, resolveWorkload } from '../src/sim/workload/load-manifest.js';
import { compileWorkload } from '../src/driver/compile-workload.js';
import { instrumentPipeline } from '../src/passes/instrument/instrument-module.js';
import { printModule } from '../src/ir/printer.js';
const c = compileWorkload(loadManifest(resolveWorkload(process.argv[2]!)));
instrumentPipeline(c.modules, process.argv[3] as any);
console.log(printModule(c.modules[0]!));
