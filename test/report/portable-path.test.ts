// Reports and instrumentation-buffer.json name files relative to the manifest, never by the
// absolute path of the machine that wrote them.
import test from 'ava';
import { portableManifestPath, portableNamer, portablePath } from '../../src/report/portable-path.js';

test('paths inside or beside the manifest folder are relative; others are base names; never absolute', (t) => {
  t.is(portablePath('/home/me/app/shaders/raygen.rgen', '/home/me/app'), 'shaders/raygen.rgen');
  t.is(portablePath('/home/me/common/camera.glsl', '/home/me/app'), '../common/camera.glsl');
  t.is(portablePath('/usr/share/vulkan/x/y/z.glsl', '/home/me/app'), 'z.glsl');
  t.is(portablePath('raygen.rgen', '/anything'), 'raygen.rgen');
  t.is(portableManifestPath('/opt/vvision/workloads/ao/workload.json'), 'ao/workload.json');
});

test('portableNamer: two different files that would share a name keep their whole relative path', (t) => {
  const paths = ['/home/me/app/raygen.rgen', '/opt/a/b/c/common.glsl', '/srv/x/y/z/common.glsl', '/usr/share/q/r/s/only.glsl'];
  const name = portableNamer(paths, '/home/me/app');
  t.is(name('/home/me/app/raygen.rgen'), 'raygen.rgen');
  t.is(name('/usr/share/q/r/s/only.glsl'), 'only.glsl');
  t.not(name('/opt/a/b/c/common.glsl'), name('/srv/x/y/z/common.glsl'));
  for (const p of paths) t.false(name(p).startsWith('/'), p);
});
