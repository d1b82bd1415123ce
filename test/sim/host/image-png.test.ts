// image.png is opaque unless asked: an application that leaves alpha 0 must not give a blank picture.
import test from 'ava';
import { PNG } from 'pngjs';
import { createImage } from '../../../src/sim/functional/images.js';
import { imageToPng } from '../../../src/sim/host/image-png.js';

test('image.png is opaque by default and keeps the shader alpha with keepAlpha', (t) => {
  const img = createImage('rgba8', 2, 1);
  (img.levels[0]!.data as Uint8Array).set([10, 20, 30, 0, 40, 50, 60, 128]);
  const opaque = PNG.sync.read(Buffer.from(imageToPng(img)));
  t.deepEqual([...opaque.data], [10, 20, 30, 255, 40, 50, 60, 255]);
  const kept = PNG.sync.read(Buffer.from(imageToPng(img, { keepAlpha: true })));
  t.deepEqual([...kept.data], [10, 20, 30, 0, 40, 50, 60, 128]);
});
