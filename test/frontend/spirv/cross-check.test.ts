/**
 * The cross-check: for every built-in workload, the shaders compiled by glslang
 * (`glslangValidator -V -g --target-env vulkan1.2`) and read by vvision's SPIR-V reader give the
 * same image, the same rays, hits and misses, as the GLSL front end. Instruction counts differ
 * (measured at 16x16: -1.6% to +6.9%): glslang passes function arguments through Function
 * variables (a store per argument, loads in the callee), and writes a ternary as a branch into a
 * variable where vvision's front end uses OpSelect. The test bounds the difference at 15% and
 * prints it. Skipped without glslangValidator.
 */
import test from 'ava';
import { launchOptionsOf, prepareRun, sharedPreparation, type SharedPreparation } from '../../../src/driver/run-workload.js';
import { runFunctional } from '../../../src/sim/functional/launch.js';
import { imageToPng } from '../../../src/sim/host/image-png.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { existsSync } from 'node:fs';
import { calibrationDir, listBuiltinWorkloads, listCalibrationWorkloads } from '../../../src/sim/workload/load-manifest.js';
import { hasGlslang } from '../../backend/spirv/spirv-tools.js';
import { withGlslangModules } from './glslang-spirv.js';

const maybe = hasGlslang ? test : test.skip;
if (!hasGlslang) console.log('glslangValidator not installed (Debian glslang-tools): SPIR-V cross-check skipped');

async function run(name: string, shared: SharedPreparation) {
  const p = await prepareRun(name, { width: 16, height: 16 }, undefined, shared);
  const counters = runFunctional(p.program, p.host.resources, launchOptionsOf(p, undefined));
  return { png: Buffer.from(imageToPng(p.host.output!)), counters, rt: p.rt.counters };
}

// The LumiBench calibration workloads (a real application's unmodified shaders) too, when the shared folder is there.
const calibration = existsSync(calibrationDir()) ? listCalibrationWorkloads() : [];
for (const w of [...listBuiltinWorkloads(), ...calibration]) {
  maybe(`${w.name}: glslang's SPIR-V gives the GLSL front end's image and ray counts`, async (t) => {
    const glsl = await sharedPreparation(w.name);
    const spirv = withGlslangModules(glsl);
    for (const m of spirv.compiled.modules) t.deepEqual(verifyModule(m), [], m.sources[0]!.path);
    const a = await run(w.name, glsl);
    const b = await run(w.name, spirv);
    t.true(a.png.equals(b.png), 'same image');
    t.is(b.rt.rays, a.rt.rays);
    t.is(b.rt.hits, a.rt.hits);
    t.is(b.rt.misses, a.rt.misses);
    const delta = b.counters.threadInsts / a.counters.threadInsts - 1;
    t.log(`${w.name}: thread instructions GLSL ${a.counters.threadInsts}, glslang SPIR-V ${b.counters.threadInsts} (${delta >= 0 ? '+' : ''}${(100 * delta).toFixed(1)}%)`);
    t.true(Math.abs(delta) < 0.15, `instruction counts within 15% (${(100 * delta).toFixed(1)}%)`);
  });
}
