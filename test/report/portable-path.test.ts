// Reports and instrumentation-buffer.json name files relative to the manifest, never by the
// absolute path of the machine that wrote them.
import test from 'ava';
import { portableManifestPath, portablePath } from '../../src/report/portable-path.js';

test('paths inside or beside the manifest folder are relative; others are base names; never absolute', (t) => {
  t.is(portablePath('/home/me/app/shaders/raygen.rgen', '/home/me/app'), 'shaders/raygen.rgen');
  t.is(portablePath('/home/me/common/camera.glsl', '/home/me/app'), '../common/camera.glsl');
  t.is(portablePath('/usr/share/vulkan/x/y/z.glsl', '/home/me/app'), 'z.glsl');
  t.is(portablePath('raygen.rgen', '/anything'), 'raygen.rgen');
  t.is(portableManifestPath('/opt/vvision/workloads/ao/workload.json'), 'ao/workload.json');
});
