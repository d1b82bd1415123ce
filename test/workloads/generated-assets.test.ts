// The committed textures and generated OBJ scenes are exactly what the generator scripts under
// workloads/tools/ produce, so a reviewer can trust the scripts and regenerate instead of
// hand-editing binary or numeric files.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { generatedScenes } from '../../workloads/tools/make-scenes.js';
import { TEXTURES, encodeTexture, workloadsDir } from '../../workloads/tools/make-textures.js';

test('each committed texture has the generator pixels', (t) => {
  for (const spec of TEXTURES) {
    const committed = PNG.sync.read(readFileSync(join(workloadsDir(), spec.file)));
    const generated = PNG.sync.read(encodeTexture(spec));
    t.is(committed.width, spec.width, spec.file);
    t.is(committed.height, spec.height, spec.file);
    t.true(Buffer.compare(committed.data, generated.data) === 0, `${spec.file} differs from workloads/tools/make-textures.ts`);
  }
});

test('the alpha textures have real cutouts and the checker is opaque', (t) => {
  const alphaOf = (file: string) => {
    const png = PNG.sync.read(readFileSync(join(workloadsDir(), file)));
    let transparent = 0;
    for (let i = 3; i < png.data.length; i += 4) if (png.data[i]! < 128) transparent++;
    return transparent / (png.width * png.height);
  };
  t.is(alphaOf('alpha/textures/checker.png'), 0);
  const fence = alphaOf('alpha/textures/fence.png');
  const leaf = alphaOf('alpha/textures/leaf.png');
  t.true(fence > 0.3 && fence < 0.8, `fence holes ${fence}`);
  t.true(leaf > 0.4 && leaf < 0.8, `leaf outside ${leaf}`);
});

test('each committed generated scene file is byte-identical to the generator output', (t) => {
  for (const f of generatedScenes()) {
    t.is(readFileSync(join(workloadsDir(), f.file), 'utf8'), f.text, `${f.file} differs from workloads/tools/make-scenes.ts`);
  }
});
