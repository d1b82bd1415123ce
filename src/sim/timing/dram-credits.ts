/**
 * GPGPU-Sim's DRAM arbitration credits (memory_partition_unit::arbitration_metadata): a
 * sub-partition may send a request to its channel's DRAM only while it holds a credit, and the
 * credit comes back when the read's data leaves the DRAM's return queue for the sub-partition
 * (or the write completes). Each sub-partition has one private credit, for forward progress; the
 * rest, the scheduler queue plus the return queue less one per other sub-partition, is shared.
 * With either queue unlimited (size 0) the shared pool is unlimited.
 *
 * Invariants: 0 <= private[s] <= 1, 0 <= shared <= limit (when limited); a credit is returned
 * to the pool it was borrowed from (private first, as GPGPU-Sim returns it).
 */
export class DramCredits {
  private readonly priv: Int32Array;
  private shared = 0;
  /** 0 = unlimited. */
  private readonly sharedLimit: number;
  /** The sub-partition (local index) that borrowed last: the next round starts after it. */
  lastBorrower: number;

  constructor(subPartitions: number, schedQueue: number, returnQueue: number) {
    this.priv = new Int32Array(subPartitions);
    this.sharedLimit = schedQueue === 0 || returnQueue === 0 ? 0 : Math.max(0, schedQueue + returnQueue - (subPartitions - 1));
    this.lastBorrower = subPartitions - 1;
  }

  has(s: number): boolean {
    return this.priv[s]! < 1 || this.sharedLimit === 0 || this.shared < this.sharedLimit;
  }

  borrow(s: number): void {
    if (this.priv[s]! < 1) this.priv[s]!++;
    else this.shared++;
    this.lastBorrower = s;
  }

  giveBack(s: number): void {
    if (this.priv[s]! > 0) this.priv[s]!--;
    else this.shared--;
  }
}
