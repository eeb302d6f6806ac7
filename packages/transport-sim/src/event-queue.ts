/** An event of the simulation: something that happens at a virtual time. */
export interface SimEvent {
  /** Virtual time (time units). */
  time: number;
  /** Creation order: breaks ties so that equal times run in the order they were scheduled. */
  seq: number;
}

/** `a` goes before `b`: lower `time`, then lower `seq`. */
const before = (a: SimEvent, b: SimEvent): boolean => a.time < b.time || (a.time === b.time && a.seq < b.seq);

/** Compact the in-order lane once this many taken slots lead it (and they are half of it). */
const COMPACT_AT = 4096;

/**
 * The events of a simulation ordered by (time, seq): a binary min-heap, beside an in-order lane
 * (a FIFO) for events that arrive already sorted — messages under a constant delay are sent in
 * (time, seq) order, so they cost O(1) instead of O(log size). The lane only ever takes an event
 * that goes after its last one; the first event is the earlier of the two heads, so the order is
 * the same as with the heap alone.
 */
export class EventQueue<E extends SimEvent> {
  #heap: E[] = [];
  #lane: (E | undefined)[] = [];
  #laneHead = 0;

  /** Events queued. */
  get size(): number {
    return this.#heap.length + this.#lane.length - this.#laneHead;
  }

  /** The first event (lowest `time`, then lowest `seq`), left in the queue. */
  peek(): E | undefined {
    const h = this.#heap[0];
    const l = this.#lane[this.#laneHead];
    if (l === undefined) return h;
    return h === undefined || before(l, h) ? l : h;
  }

  /**
   * Queues an event that is likely to go after every event queued this way before it (O(1) when
   * it does; otherwise it joins the heap, O(log size)).
   */
  pushInOrder(e: E): void {
    const lane = this.#lane;
    const last = lane.length > this.#laneHead ? lane[lane.length - 1] : undefined;
    if (last === undefined || before(last, e)) lane.push(e);
    else this.#pushHeap(e);
  }

  /** Takes the first event out of the queue (O(1) from the lane, O(log size) from the heap). */
  pop(): E | undefined {
    const h = this.#heap[0];
    const l = this.#lane[this.#laneHead];
    if (l !== undefined && (h === undefined || before(l, h))) return this.#takeLane();
    return this.#popHeap();
  }

  #takeLane(): E {
    const lane = this.#lane;
    const e = lane[this.#laneHead]!;
    lane[this.#laneHead] = undefined;
    this.#laneHead++;
    if (this.#laneHead === lane.length) {
      lane.length = 0;
      this.#laneHead = 0;
    } else if (this.#laneHead >= COMPACT_AT && this.#laneHead * 2 >= lane.length) {
      lane.copyWithin(0, this.#laneHead);
      lane.length -= this.#laneHead;
      this.#laneHead = 0;
    }
    return e;
  }

  /** Queues an event (in the heap: O(log size)). */
  push(e: E): void {
    this.#pushHeap(e);
  }

  #pushHeap(e: E): void {
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

  #popHeap(): E | undefined {
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
    const all = this.values();
    const kept = all.filter((e) => !pred(e));
    const removed = all.length - kept.length;
    if (removed > 0) {
      this.#heap = [];
      this.#lane = [];
      this.#laneHead = 0;
      for (const e of kept) this.#pushHeap(e);
    }
    return removed;
  }

  /** Every queued event, unordered. */
  values(): readonly E[] {
    const lane = this.#lane.slice(this.#laneHead) as E[];
    return lane.length === 0 ? this.#heap : [...this.#heap, ...lane];
  }
}
