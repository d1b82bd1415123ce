// Every built-in workload rendered end to end (manifest -> front end -> host setup -> functional
// simulator) at 24x24, one sample: the image must be recognisably what the workload draws,
// checked with image statistics the scene implies (walls' colours, sky above, objects' hues).
import test from 'ava';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { runWorkload } from '../../src/driver/run-workload.js';
import { readTexel, type SimImage } from '../../src/sim/functional/images.js';
import { imageToPng } from '../../src/sim/host/image-png.js';

const SIZE = 24;
const GOLDEN = join(import.meta.dirname, 'golden');

/**
 * The expected frames are committed PNGs (the simulator is deterministic, so they must match to
 * the byte value). After an intended change, regenerate with VVISION_UPDATE_GOLDEN=1, look at
 * the new images, and review the diff.
 */
function checkGolden(workload: string, img: SimImage): void {
  const file = join(GOLDEN, `${workload}-${SIZE}.png`);
  const png = imageToPng(img, { keepAlpha: true });
  if (process.env.VVISION_UPDATE_GOLDEN === '1' || !existsSync(file)) {
    if (process.env.CI && !existsSync(file)) throw new Error(`${file}: missing golden image`);
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, png);
    return;
  }
  const want = PNG.sync.read(readFileSync(file));
  const got = PNG.sync.read(Buffer.from(png));
  let differ = 0;
  for (let i = 0; i < want.data.length; i++) if (want.data[i] !== got.data[i]) differ++;
  if (want.width !== got.width || want.height !== got.height || differ > 0) {
    throw new Error(`${workload}: the frame differs from ${file} in ${differ} byte(s); if intended, rerun with VVISION_UPDATE_GOLDEN=1`);
  }
}

interface Frame {
  width: number;
  height: number;
  /** Linear RGB in [0, 1] as the shader stored it. */
  rgb(x: number, y: number): [number, number, number];
}

async function render(workload: string): Promise<Frame> {
  const r = await runWorkload(workload, { width: SIZE, height: SIZE, spp: 1 });
  const img: SimImage | undefined = r.image;
  if (!img) throw new Error(`${workload}: no output image`);
  checkGolden(workload, img);
  const level = img.levels[0]!;
  const texel = new Float64Array(4);
  return {
    width: level.width,
    height: level.height,
    rgb: (x, y) => {
      texel.fill(0);
      readTexel(img, 0, x, y, 0, 0, texel);
      return [texel[0]!, texel[1]!, texel[2]!];
    },
  };
}

function pixels(f: Frame, x0 = 0, y0 = 0, x1 = f.width, y1 = f.height): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) out.push(f.rgb(x, y));
  return out;
}

const mean = (ps: [number, number, number][]): [number, number, number] =>
  [0, 1, 2].map((c) => ps.reduce((s, p) => s + p[c]!, 0) / ps.length) as [number, number, number];
const luminance = (p: [number, number, number]) => 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];

function assertNotFlat(t: import('ava').ExecutionContext, f: Frame, name: string): void {
  const ls = pixels(f).map(luminance);
  const m = ls.reduce((a, b) => a + b, 0) / ls.length;
  const sd = Math.sqrt(ls.reduce((a, b) => a + (b - m) ** 2, 0) / ls.length);
  t.true(sd > 0.03, `${name}: luminance spread ${sd.toFixed(3)} (a flat image means nothing was drawn)`);
  t.true(ls.every((l) => Number.isFinite(l)), `${name}: finite pixels`);
}

test('tri: a barycentric triangle in the middle of a sky gradient', async (t) => {
  const f = await render('tri');
  assertNotFlat(t, f, 'tri');
  const c = f.rgb(SIZE / 2, SIZE / 2 + 2);
  t.true(c.every((x) => x > 0.05), `centre mixes all three vertex colours: ${c.map((x) => x.toFixed(2))}`);
  const top = f.rgb(0, 0);
  const bottom = f.rgb(0, SIZE - 1);
  t.true(top[2] > top[0] + 0.2, 'top of the sky is blue');
  t.true(bottom[0] > top[0], 'the sky lightens towards the horizon');
});

test('ao: grey occlusion values, darker in the corner of the room than on the open back wall', async (t) => {
  const f = await render('ao');
  assertNotFlat(t, f, 'ao');
  const all = mean(pixels(f));
  t.true(all[0] > 0.2 && all[0] < 0.95, `mean visibility ${all[0].toFixed(2)}`);
  t.true(pixels(f).every(([r, g, b]) => r === g && g === b), 'grey');
  const corner = mean(pixels(f, 0, 0, 3, 3))[0];
  const wall = mean(pixels(f, 9, 6, 15, 10))[0];
  t.true(wall > corner, `open back wall ${wall.toFixed(2)} brighter than the ceiling corner ${corner.toFixed(2)}`);
});

test('ref: a red and a blue sphere beside the mirror sphere', async (t) => {
  const f = await render('ref');
  assertNotFlat(t, f, 'ref');
  const ps = pixels(f);
  t.true(ps.some(([r, g, b]) => r > 0.45 && g < 0.35 && b < 0.35), 'red sphere');
  t.true(ps.some(([r, g, b]) => b > 0.45 && r < 0.4), 'blue sphere');
});

test('pt: the one-weekend spheres under a blue sky', async (t) => {
  const f = await render('pt');
  assertNotFlat(t, f, 'pt');
  const sky = mean(pixels(f, 0, 0, SIZE, 2));
  t.true(sky[2] > sky[0], 'sky at the top is bluer than red');
  const m = mean(pixels(f));
  t.true(luminance(m) > 0.15 && luminance(m) < 0.95, `mean ${luminance(m).toFixed(2)}`);
});

test('cornell: red wall on the left, green wall on the right', async (t) => {
  const f = await render('cornell');
  assertNotFlat(t, f, 'cornell');
  const left = mean(pixels(f, 0, 4, 4, SIZE - 4));
  const right = mean(pixels(f, SIZE - 4, 4, SIZE, SIZE - 4));
  t.true(left[0] > left[1] * 1.5, `left wall red: ${left.map((x) => x.toFixed(2))}`);
  t.true(right[1] > right[0] * 1.2, `right wall green: ${right.map((x) => x.toFixed(2))}`);
});

test('rtv6: cyan spheres and yellow boxes from two intersection shaders', async (t) => {
  const f = await render('rtv6');
  assertNotFlat(t, f, 'rtv6');
  const ps = pixels(f);
  t.true(ps.some(([r, g, b]) => g > 0.3 && b > 0.3 && r < 0.6 * g), 'a cyan sphere pixel');
  t.true(ps.some(([r, g, b]) => r > 0.3 && g > 0.3 && b < 0.5 * r), 'a yellow box pixel');
});

test('alpha: green leaves in front of the fence', async (t) => {
  const f = await render('alpha');
  assertNotFlat(t, f, 'alpha');
  const ps = pixels(f);
  t.true(ps.some(([r, g, b]) => g > r + 0.1 && g > b + 0.1), 'a leaf pixel');
});

test('call: a lit Suzanne in front of a dark background', async (t) => {
  const f = await render('call');
  assertNotFlat(t, f, 'call');
  const centre = luminance(mean(pixels(f, SIZE / 2 - 2, SIZE / 2 - 2, SIZE / 2 + 2, SIZE / 2 + 2)));
  const corner = luminance(f.rgb(0, 0));
  t.true(centre > corner + 0.2, `centre ${centre.toFixed(2)} vs corner ${corner.toFixed(2)}`);
});

test('bunny: a bright bunny over the ground, sky at the top', async (t) => {
  const f = await render('bunny');
  assertNotFlat(t, f, 'bunny');
  const top = f.rgb(0, 0);
  t.true(top[2] > top[0], 'sky is bluish');
  const centre = luminance(mean(pixels(f, SIZE / 2 - 2, SIZE / 2 - 2, SIZE / 2 + 2, SIZE / 2 + 2)));
  t.true(centre > 0.4, `bunny centre ${centre.toFixed(2)}`);
});

test('models: Suzanne (her own buffers, by device address) above the JPEG wood floor, sky at the top', async (t) => {
  const f = await render('models');
  assertNotFlat(t, f, 'models');
  const top = f.rgb(0, 0);
  t.true(top[2] > top[0], 'sky is bluish');
  const suzanne = luminance(mean(pixels(f, 10, 8, 14, 10)));
  const floor = mean(pixels(f, 0, 20, SIZE, SIZE));
  t.true(suzanne > 0.5, `Suzanne is lit: ${suzanne.toFixed(2)}`);
  t.true(floor[0] > floor[2] && luminance(floor) > 0.05, `the floor shows the wood texture: ${floor.map((x) => x.toFixed(2))}`);
});

test('bindless: the JPEG crate and a red-tinted Suzanne, both reached through the push-constant address', async (t) => {
  const f = await render('bindless');
  assertNotFlat(t, f, 'bindless');
  const sky = mean(pixels(f, 0, 0, SIZE, 4));
  t.true(luminance(sky) > 0.8 && sky[2] >= sky[0], 'a pale sky above');
  const suzanne = mean(pixels(f, 16, 10, 20, 13));
  t.true(suzanne[0] > suzanne[1] && suzanne[1] > suzanne[2], `Suzanne's tint: ${suzanne.map((x) => x.toFixed(2))}`);
  const crate = pixels(f, 4, 9, 10, 14).map(luminance);
  t.true(Math.max(...crate) - Math.min(...crate) > 0.1, 'the crate shows its texture');
  t.true(Math.max(...crate) < 0.8, 'the crate is in front of the sky');
});
