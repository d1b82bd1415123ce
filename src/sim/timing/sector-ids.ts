/**
 * Sector ids: the memory side's compact numbering of the 32-byte sectors a run touches (issue 25.2).
 * Every simulated address lies above 2^36 (the address plan: SCENE_BASE, AS_BASE, LOCAL_BASE, ...),
 * so as a JS number it is a double: boxed in every object field and at every call that is not
 * inlined, compared as a double in every tag and MSHR table, and taken apart by division. The
 * caches, their MSHRs, the memory requests and the L2 carry sector ids instead, which are small
 * integers (V8 Smis, Int32Array entries) end to end; the byte address comes back (`addressOf`)
 * wherever the model computes something from it: the address map's decode (sub-partition, DRAM
 * bank / row / column), the partition address and the cache set-index hashes. Those see exactly
 * the addresses they saw before, so no statistic depends on the numbering.
 *
 * The numbering is by 64 KiB page in the order pages are first touched: id = page's number * 2048
 * + the sector inside the page. A cache line (32 B to 64 KiB, a power of two) is a run of
 * `lineBytes / 32` consecutive ids starting at a multiple of that count, so a line id is a sector
 * id with its low bits cleared, and the sectors of a line are its id + 0..3.
 *
 * Invariants: a pure function of the run (pages are numbered in the deterministic order the model
 * touches them); `addressOf(idOf(a))` is `a` rounded down to 32 bytes for every address below
 * 2^53; every id is below 2^30 (a Smi on every V8 build; `idOf` throws past MAX_PAGES pages).
 */
/** Bytes per sector id. */
export const SECTOR_BYTES = 32;
const PAGE_BYTES = 2 ** 16;
const SECTORS_PER_PAGE = PAGE_BYTES / SECTOR_BYTES;
const SECTOR_SHIFT = 11; // log2(SECTORS_PER_PAGE)
/** Pages numbered at most: ids stay below 2^30. */
const MAX_PAGES = 2 ** (30 - SECTOR_SHIFT);

export class SectorIds {
  /** Page number (address / 64 KiB) -> page index. */
  private readonly pageIndex = new Map<number, number>();
  /** Page index -> the page's first byte address. */
  private pageBase: Float64Array = new Float64Array(64);
  private pages = 0;
  /** The last page looked up (most accesses stay in it). */
  private lastPage = -1;
  private lastIndex = 0;

  /** The id of the sector holding byte address `addr` (a non-negative integer below 2^53). */
  idOf(addr: number): number {
    const page = Math.floor(addr / PAGE_BYTES);
    const sector = ((addr - page * PAGE_BYTES) / SECTOR_BYTES) | 0;
    if (page === this.lastPage) return (this.lastIndex << SECTOR_SHIFT) | sector;
    return (this.indexOfPage(page) << SECTOR_SHIFT) | sector;
  }

  /** The first byte address of sector `id`. */
  addressOf(id: number): number {
    return this.pageBase[id >>> SECTOR_SHIFT]! + (id & (SECTORS_PER_PAGE - 1)) * SECTOR_BYTES;
  }

  private indexOfPage(page: number): number {
    let index = this.pageIndex.get(page);
    if (index === undefined) {
      index = this.pages++;
      if (index >= MAX_PAGES) {
        throw new Error(`the timing model numbers at most ${MAX_PAGES} pages of ${PAGE_BYTES / 1024} KiB of simulated memory (${(MAX_PAGES * PAGE_BYTES) / 2 ** 30} GiB); this run touched more`);
      }
      this.pageIndex.set(page, index);
      if (index === this.pageBase.length) {
        const grown = new Float64Array(2 * index);
        grown.set(this.pageBase);
        this.pageBase = grown;
      }
      this.pageBase[index] = page * PAGE_BYTES;
    }
    this.lastPage = page;
    this.lastIndex = index;
    return index;
  }
}
