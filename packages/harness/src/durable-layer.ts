/**
 * The durable layer of one simulated process (issue 27 §1, the transactional outbox): it sits
 * between a {@link DurableCSObject} and its endpoint and makes every step durable before the
 * rest of the cluster can see it.
 *
 * - The sends of a step are **held**. A step is a message handled, a call begun or settled, a
 *   state change; after the step (a timer of delay 0: after the synchronous work of the
 *   instant) the layer stages the object's {@link DurableCSObject.durableState} as the record
 *   `cs` and, after a seeded **sync time** (time units, possibly 0), commits it.
 * - Once the commit is durable the held sends of the steps it covers leave, in order, and the
 *   messages those steps handled are acknowledged (`SimNetwork.acknowledge`: the
 *   acknowledge-after-commit rule, so a crash before the commit sends them back to their links).
 * - {@link DurableLayer.crash} is the process's crash: the staged and uncommitted state is lost
 *   (the memory store's simulated crash), the held sends are dropped.
 */
import type { DurableCSObject, Endpoint, Message, ProcessId } from '@critsec/core';
import type { MemoryStore } from '@critsec/store';
import type { SimNetwork } from '@critsec/transport-sim';

/** The record the layer keeps a process's protocol state in. */
export const CS_RECORD = 'cs';

/** What one crash of a durable process lost. */
export interface CrashLoss {
  /** Steps whose state was staged or taken but not yet durable (lost with the crash). */
  readonly unsyncedSteps: number;
  /** Held sends dropped (they depended on those steps). */
  readonly droppedSends: number;
}

/** A batch of steps: the sends they held and the hand-over mark they acknowledge. */
interface Batch {
  readonly seq: number;
  readonly sends: (() => void)[];
  readonly mark: number;
}

/**
 * One incarnation of a durable process: build it over the incarnation's store, wrap the
 * endpoint the factory gets ({@link endpoint}), then {@link attach} the object.
 */
export class DurableLayer {
  readonly #net: SimNetwork;
  readonly #id: ProcessId;
  readonly #store: MemoryStore;
  readonly #syncTime: () => number;
  #cs: DurableCSObject<unknown> | undefined;
  #held: (() => void)[] = [];
  readonly #batches: Batch[] = [];
  #nextSeq = 0;
  #stepScheduled = false;
  #dead = false;
  #handled = 0;
  readonly #idle: (() => void)[] = [];
  /** Called after every handler step, with the number of steps handled so far by this incarnation. */
  onHandled: ((steps: number) => void) | undefined;

  /**
   * The layer of process `id`'s current incarnation on `net`, persisting into `store`.
   * @param syncTime draws the simulated duration of one commit's sync (time units, ≥ 0).
   */
  constructor(net: SimNetwork, id: ProcessId, store: MemoryStore, syncTime: () => number) {
    this.#net = net;
    this.#id = id;
    this.#store = store;
    this.#syncTime = syncTime;
  }

  /** The endpoint to build the object on: sends are held until their step is durable. */
  endpoint(inner: Endpoint): Endpoint {
    return {
      self: inner.self,
      peers: inner.peers,
      path: inner.path,
      send: (to: ProcessId, msg: Message) => {
        if (this.#dead) return;
        this.#held.push(() => inner.send(to, msg));
        this.touch();
      },
      onMessage: (fn: (from: ProcessId, msg: Message) => void) =>
        inner.onMessage((from, msg) => {
          if (this.#dead) return;
          this.touch();
          fn(from, msg);
          this.#handled++;
          this.onHandled?.(this.#handled);
        }),
      channel: (name: string) => this.endpoint(inner.channel(name)),
    };
  }

  /** The object whose state the layer persists; its state changes are steps. */
  attach(cs: DurableCSObject<unknown>): void {
    this.#cs = cs;
    cs.on('statechange', () => this.touch());
  }

  /** Something happened in this process (a step): its state is persisted after the instant. */
  touch(): void {
    if (this.#dead || this.#stepScheduled) return;
    this.#stepScheduled = true;
    this.#net.schedule(0, () => this.#endStep(), `P${this.#id} step`);
  }

  /** True when every step is durable and every held send has left. */
  get idle(): boolean {
    return !this.#stepScheduled && this.#batches.length === 0 && this.#held.length === 0;
  }

  /** Runs `fn` once the layer is {@link idle} (at once if it is). */
  whenIdle(fn: () => void): void {
    if (this.idle) fn();
    else this.#idle.push(fn);
  }

  /** The crash of this incarnation: loses what is not durable, drops the held sends. */
  crash(): CrashLoss {
    const unsyncedSteps = this.#batches.length + (this.#stepScheduled ? 1 : 0);
    let droppedSends = this.#held.length;
    for (const b of this.#batches) droppedSends += b.sends.length;
    this.#dead = true;
    this.#held = [];
    this.#batches.length = 0;
    this.#idle.length = 0;
    this.#store.crash();
    return { unsyncedSteps, droppedSends };
  }

  #endStep(): void {
    this.#stepScheduled = false;
    if (this.#dead || this.#cs === undefined) return;
    const batch: Batch = { seq: this.#nextSeq++, sends: this.#held, mark: this.#net.handedOver(this.#id) };
    this.#held = [];
    this.#batches.push(batch);
    this.#store.stage(CS_RECORD, this.#cs.durableState());
    const sync = this.#syncTime();
    if (sync === 0) this.#commit();
    else this.#net.schedule(sync, () => this.#commit(), `P${this.#id} sync`);
  }

  /**
   * Commits what is staged. The store writes the latest staged state — that of every step staged
   * so far, not only of the batch whose sync time ran out — so once it is durable, every batch
   * staged before this call is released, in order: a durable state never waits for the sends it
   * caused (a crash would drop them while the state that caused them survives).
   */
  #commit(): void {
    if (this.#dead) return;
    const covered = this.#nextSeq - 1;
    this.#store.commit().then(
      () => {
        if (this.#dead) return;
        while (this.#batches.length > 0 && this.#batches[0]!.seq <= covered) {
          const b = this.#batches.shift()!;
          for (const send of b.sends) send();
          this.#net.acknowledge(this.#id, b.mark);
        }
        if (this.idle) for (const fn of this.#idle.splice(0)) fn();
      },
      () => {}, // lost with a crash: nothing leaves
    );
  }
}
