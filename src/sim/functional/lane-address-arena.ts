/**
 * Where a warp step's per-lane address arrays (MemAccess.addresses, 32 lanes) come from. Each was
 * a `new Float64Array(32)`: 256 bytes is past V8's limit for a typed array inside the JS heap, so
 * every one also allocated, zeroed and later freed an ArrayBuffer backing store outside it (about
 * 0.6 us apiece, measured; the largest cost of building a step). The arena instead carves them out
 * of shared 4 KiB buffers: a view costs no backing store, only its own small heap object.
 *
 * Invariants: every array handed out is a 32-element view no other array overlaps, zero when
 * handed out (a buffer is fresh when carved and never reused); a view keeps its buffer alive, so a
 * step that lives long (an evicted CTA's) pins at most 4 KiB besides its own arrays.
 */

const LANES = 32;
/** Address arrays per buffer: 16 x 256 bytes = 4 KiB. */
const PER_BUFFER = 16;

export class LaneAddressArena {
  private buffer = new ArrayBuffer(0);
  private next = PER_BUFFER;

  /** A zeroed array of one address per lane, its own for as long as it lives. */
  take(): Float64Array {
    if (this.next === PER_BUFFER) {
      this.buffer = new ArrayBuffer(PER_BUFFER * LANES * 8);
      this.next = 0;
    }
    return new Float64Array(this.buffer, this.next++ * LANES * 8, LANES);
  }
}
