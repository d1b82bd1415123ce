// metadata.json names source files relative to the manifest (src/driver/portable-metadata.ts).
import test from 'ava';
import { portableMetadata } from '../../src/driver/portable-metadata.js';
import { emptyMetadata, type InstrumentationMetadata, type SiteMetadata } from '../../src/primitives/buffer-layout.js';

const site = (id: number, file: string): SiteMetadata => ({
  id, kind: 'block', primitive: 'WarpUpdate', entryWords: 3, fields: ['thread_work_id', 'inst_id', 'active_mask'], shader: 0, function: 'main',
  block: 0, blockInstCount: 1, blockLines: [1], loc: { file, line: 1, column: 1 },
});

test('shader paths, #included files and site locations become relative; text, ids and everything else are kept', (t) => {
  const meta: InstrumentationMetadata = {
    ...emptyMetadata(),
    modes: ['simt'],
    shaders: [{
      index: 0, name: 'raygen.rgen', stage: 'raygen', sourcePath: '/home/me/app/shaders/raygen.rgen', sourceText: 'void main() {}', entryFunction: 'main', cfg: [],
      files: [{ path: '/home/me/app/shaders/raygen.rgen' }, { path: '/home/me/app/common/camera.glsl', text: '// camera' }],
    }],
    sites: [site(0, '/home/me/app/shaders/raygen.rgen'), site(1, '/home/me/app/common/camera.glsl'), site(2, '')],
  };
  const out = portableMetadata(meta, '/home/me/app/shaders');
  t.is(out.shaders[0]!.sourcePath, 'raygen.rgen');
  t.deepEqual(out.shaders[0]!.files, [{ path: 'raygen.rgen' }, { path: '../common/camera.glsl', text: '// camera' }]);
  t.deepEqual(out.sites.map((s) => s.loc.file), ['raygen.rgen', '../common/camera.glsl', '']);
  t.is(out.shaders[0]!.sourceText, 'void main() {}');
  t.deepEqual({ ...out, shaders: [], sites: [] }, { ...meta, shaders: [], sites: [] });
  // The input is not changed.
  t.is(meta.shaders[0]!.sourcePath, '/home/me/app/shaders/raygen.rgen');
  t.false(JSON.stringify(out).includes('/home/me'));
});
