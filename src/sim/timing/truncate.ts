/**
 * Shortening a reused array without losing its storage: V8 drops an array's backing store on
 * `a.length = 0` (and trims it on other length writes), so the next push allocates it again: the
 * timing model's FIFOs and ray lists, emptied and refilled every few cycles, allocated that way
 * (issue 25.2). Popping keeps the store of a small array.
 */
export function truncate<T>(a: T[], length: number): void {
  while (a.length > length) a.pop();
}
