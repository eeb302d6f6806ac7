/** An event of the simulation: something that happens at a virtual time. */
export interface SimEvent {
  /** Virtual time (time units). */
  time: number;
  /** Creation order: breaks ties so that equal times run in the order they were scheduled. */
  seq: number;
}

/** A binary min-heap of events ordered by (time, seq). */
export class EventQueue<E extends SimEvent> {
  #heap: E[] = [];

  /** Events queued. */
  get size(): number {
    return this.#heap.length;
  }

  /** The first event (lowest `time`, then lowest `seq`), left in the queue. */
  peek(): E | undefined {
    return this.#heap[0];
  }

  /** Queues an event (O(log size)). */
  push(e: E): void {
    const h = this.#heap;
    let i = h.length;
    h.push(e);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p]!;
      if (parent.time < e.time || (parent.time === e.time && parent.seq < e.seq)) break;
      h[i] = parent;
      i = p;
    }
    h[i] = e;
  }

  /** Takes the first event out of the queue (O(log size)). */
  pop(): E | undefined {
    const h = this.#heap;
    const top = h[0];
    const last = h.pop();
    if (top === undefined || last === undefined || h.length === 0) return top;
    const n = h.length;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      let child = h[l]!;
      if (r < n) {
        const right = h[r]!;
        if (right.time < child.time || (right.time === child.time && right.seq < child.seq)) {
          c = r;
          child = right;
        }
      }
      if (last.time < child.time || (last.time === child.time && last.seq < child.seq)) break;
      h[i] = child;
      i = c;
    }
    h[i] = last;
    return top;
  }

  /** Removes every event matching `pred` (O(size)). */
  removeWhere(pred: (e: E) => boolean): number {
    const kept = this.#heap.filter((e) => !pred(e));
    const removed = this.#heap.length - kept.length;
    if (removed > 0) {
      this.#heap = [];
      for (const e of kept) this.push(e);
    }
    return removed;
  }

  /** Every queued event, unordered. */
  values(): readonly E[] {
    return this.#heap;
  }
}
