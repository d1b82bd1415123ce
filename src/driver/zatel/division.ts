/**
 * Dividing the image plane into K groups (paper 004, Sec. III-D) and each group into section
 * blocks (Sec. III-E):
 * - fine-grained (the default, Fig. 6-7): the plane is cut into chunks of 32x2 pixels, dealt to
 *   the groups round-robin along each chunk row, each row starting one group further than the
 *   row above: chunk (column cx, row cy) goes to group (cx + cy) mod K, the diagonal pattern of
 *   Fig. 6 (and of the authors' select_chunks_fine_grained). The chunks are the section blocks.
 *   Dealing in raster order instead coincides with Fig. 6 only when the chunks per row are 1 more
 *   than a multiple of K (Fig. 6 has 5 for K = 4); at 128, 256 or 512 pixels wide with K = 4
 *   (4, 8, 16 chunks per row) it would give every group the same 32-pixel-wide columns of every
 *   row, vertical strips that sample a quarter of the scene's columns, not the whole scene;
 * - coarse-grained (Fig. 5): K rectangles, rows x columns with rows * columns = K and the
 *   factorisation closest to square (K = 6 gives 3 rows by 2 columns, as Fig. 5), each cut into
 *   32x2 section blocks.
 * Chunks at the right / bottom border are clipped to the image. Every pixel is in exactly one
 * block of exactly one group.
 */
export type Division = 'fine' | 'coarse';

export const SECTION_BLOCK_WIDTH = 32;
export const SECTION_BLOCK_HEIGHT = 2;

export interface PixelGroup {
  index: number;
  /** Section blocks, each a list of pixel indices (y * width + x). */
  blocks: number[][];
  /** Pixels in the group. */
  pixels: number;
}

function blockPixels(x0: number, y0: number, x1: number, y1: number, width: number): number[] {
  const out: number[] = [];
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) out.push(y * width + x);
  return out;
}

function tile(x0: number, y0: number, x1: number, y1: number, width: number, bw: number, bh: number): number[][] {
  const blocks: number[][] = [];
  for (let y = y0; y < y1; y += bh) {
    for (let x = x0; x < x1; x += bw) blocks.push(blockPixels(x, y, Math.min(x + bw, x1), Math.min(y + bh, y1), width));
  }
  return blocks;
}

/** rows x columns = k, closest to square, more rows than columns when not square (Fig. 5). */
export function coarseGrid(k: number): { rows: number; cols: number } {
  let cols = Math.floor(Math.sqrt(k));
  while (k % cols !== 0) cols--;
  return { rows: k / cols, cols };
}

export function divideImage(
  width: number, height: number, k: number, division: Division,
  block: { width: number; height: number } = { width: SECTION_BLOCK_WIDTH, height: SECTION_BLOCK_HEIGHT },
): PixelGroup[] {
  if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`the number of groups must be a positive integer, got ${k}`);
  const groups: PixelGroup[] = Array.from({ length: k }, (_, index) => ({ index, blocks: [], pixels: 0 }));
  if (division === 'fine') {
    for (let y = 0, cy = 0; y < height; y += block.height, cy++) {
      for (let x = 0, cx = 0; x < width; x += block.width, cx++) {
        groups[(cx + cy) % k]!.blocks.push(blockPixels(x, y, Math.min(x + block.width, width), Math.min(y + block.height, height), width));
      }
    }
  } else {
    const { rows, cols } = coarseGrid(k);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const x0 = Math.round((c * width) / cols);
        const x1 = Math.round(((c + 1) * width) / cols);
        const y0 = Math.round((r * height) / rows);
        const y1 = Math.round(((r + 1) * height) / rows);
        groups[r * cols + c]!.blocks = tile(x0, y0, x1, y1, width, block.width, block.height);
      }
    }
  }
  for (const g of groups) g.pixels = g.blocks.reduce((a, b) => a + b.length, 0);
  return groups;
}
