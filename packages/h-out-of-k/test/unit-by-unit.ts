/**
 * The naive weighted acquire the package exists to replace (h-out-of-k paper, Sec. 1): h units
 * taken **one at a time** through a k-mutual exclusion algorithm. Each real process hosts k
 * members of a k-mutex cluster of `n·k` virtual processes (member `p·k + j` is unit slot j of
 * process p, all on the channel `units`); `entry(h)` enters slots 0..h−1 in turn, `exit()` leaves
 * them. Test-only.
 */
import {
  type CSFactory,
  CSObjectBase,
  type CSObject,
  type CSState,
  type Endpoint,
  type Message,
  type ProcessContext,
  type ProcessId,
} from '@critsec/core';

interface Wrapped extends Message {
  readonly type: 'unit';
  /** Slot of the receiver. */
  readonly j: number;
  /** Slot of the sender. */
  readonly fj: number;
  readonly m: Message;
}

class UnitByUnit extends CSObjectBase<number> {
  readonly #slots: CSObject<number>[] = [];
  #held = 0;

  constructor(ctx: ProcessContext, k: number, kmutex: CSFactory<number>) {
    super(ctx.id, 'OutCS', { takesRequest: true });
    const ep = ctx.endpoint.channel('units');
    const handlers: ((from: ProcessId, msg: Message) => void)[][] = Array.from({ length: k }, () => []);
    ep.onMessage((from, msg) => {
      const w = msg as Wrapped;
      for (const fn of handlers[w.j]!) fn(from * k + w.fj, w.m);
    });
    const N = ctx.n * k;
    const peers = Array.from({ length: N }, (_, i) => i);
    const initial = Array.from({ length: N }, (): CSState => 'OutCS');
    for (let j = 0; j < k; j++) {
      const endpoint: Endpoint = {
        self: ctx.id * k + j,
        peers,
        path: 'units',
        send: (to, m) => ep.send(Math.floor(to / k), { type: 'unit', j: to % k, fj: j, m }),
        onMessage: (fn) => {
          handlers[j]!.push(fn);
          return () => {
            handlers[j] = handlers[j]!.filter((f) => f !== fn);
          };
        },
        channel: () => {
          throw new Error('no sub-channels');
        },
      };
      this.#slots.push(kmutex({ id: ctx.id * k + j, n: N, endpoint, initial }));
    }
  }

  protected async doEntry(h: number): Promise<void> {
    for (let j = 0; j < h; j++) {
      await this.#slots[j]!.entry(1); // one unit at a time: hold-and-wait
      this.#held = j + 1;
    }
  }

  protected async doExit(): Promise<void> {
    for (let j = 0; j < this.#held; j++) await this.#slots[j]!.exit();
    this.#held = 0;
  }

  protected async doClose(): Promise<void> {
    await Promise.all(this.#slots.map((s) => s.close()));
  }
}

/** h units one at a time through `kmutex`, a k-mutex factory for `n·k` processes (requests of 1). */
export function unitByUnit(k: number, kmutex: CSFactory<number>): CSFactory<number> {
  return (ctx) => new UnitByUnit(ctx, k, kmutex);
}
