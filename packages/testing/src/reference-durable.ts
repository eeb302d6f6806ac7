/**
 * A durable reference CS object for the crash-recovery tests (issue 27): the central mutex of
 * `reference.ts` (every request goes to P0, which grants one at a time, FIFO) implementing
 * {@link DurableCSObject} — its whole protocol state is JSON, a restarted process builds from
 * `ctx.recovered`, and `recover()` withdraws a waiting request (CANCEL) or leaves a CS still
 * held (RELEASE). The state flips InCS in the GRANT handler, so the step that took the grant is
 * the step that persists it. With `forget`, it leaves one variable out of its durable state on
 * purpose: the crash suite must catch it. Not an algorithm for production.
 */
import {
  AbortError,
  ConfigurationError,
  type CSFactory,
  CSObjectBase,
  type CSState,
  type DurableCSObject,
  type Endpoint,
  type JsonValue,
  type ProcessContext,
  type ProcessId,
} from '@critsec/core';
import { Deferred, onAbort } from '@critsec/core/kit';
import { counterSchema, defineProtocol } from '@critsec/transport';
import * as v from 'valibot';

const protocol = defineProtocol(
  'durable-central-mutex',
  v.variant('type', [
    v.object({ type: v.literal('REQUEST'), req: counterSchema }),
    v.object({ type: v.literal('GRANT'), req: counterSchema }),
    v.object({ type: v.literal('RELEASE'), req: counterSchema }),
    v.object({ type: v.literal('CANCEL'), req: counterSchema }),
  ]),
);

const COORDINATOR = 0;

/** A (process, request number) pair, as stored. */
type Ticket = [ProcessId, number];

/** The durable state of one process (requester fields, and the coordinator's at P0). */
interface CentralState {
  /** The process's CS state. */
  s: CSState;
  /** Its last request number. */
  reqNo: number;
  /** The request it waits a grant for, or null. */
  waiting: number | null;
  /** Coordinator: the grant's holder, or null. */
  grantedTo: Ticket | null;
  /** Coordinator: the waiting requests, FIFO. */
  queue: Ticket[];
}

/** The variable {@link durableCentralMutex}'s `forget` leaves out of the durable state (BROKEN on purpose). */
export type ForgottenVariable = 'grantedTo' | 'waiting';

class DurableCentralMutex extends CSObjectBase implements DurableCSObject {
  readonly #endpoint: Endpoint;
  readonly #forget: ForgottenVariable | undefined;
  #grantedTo: Ticket | null = null;
  #queue: Ticket[] = [];
  #reqNo = 0;
  #waiting: number | null = null;
  #call: Deferred | null = null;

  constructor(ctx: ProcessContext, forget: ForgottenVariable | undefined) {
    const r = ctx.recovered as CentralState | undefined;
    super(ctx.id, r?.s ?? ctx.initial[ctx.id]!);
    this.#endpoint = ctx.endpoint;
    this.#forget = forget;
    if (r !== undefined) {
      this.#reqNo = r.reqNo;
      this.#waiting = r.waiting;
      this.#grantedTo = r.grantedTo;
      this.#queue = r.queue.map(([p, q]) => [p, q]);
    } else {
      const holders = ctx.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
      if (holders.length > 1)
        throw new ConfigurationError(
          `durable central mutex: at most one process may start InCS, got ${holders.join(', ')}`,
        );
      if (ctx.id === COORDINATOR && holders.length === 1) this.#grantedTo = [holders[0]!, 0];
    }
    this.listen(protocol, ctx.endpoint, (from, msg) => this.#onMessage(from, msg));
  }

  durableState(): JsonValue {
    return {
      s: this.state,
      reqNo: this.#reqNo,
      waiting: this.#forget === 'waiting' ? null : this.#waiting,
      grantedTo: this.#forget === 'grantedTo' ? null : this.#grantedTo,
      queue: this.#queue,
    } satisfies CentralState;
  }

  async recover(): Promise<void> {
    if (this.#waiting !== null) {
      this.#endpoint.send(COORDINATOR, { type: 'CANCEL', req: this.#waiting });
      this.#waiting = null;
    }
    if (this.state === 'InCS') await this.exit();
  }

  protected doEntry(_req: void, signal: AbortSignal | undefined): Promise<void> {
    const reqNo = ++this.#reqNo;
    const call = new Deferred();
    this.#call = call;
    this.#waiting = reqNo;
    this.#endpoint.send(COORDINATOR, { type: 'REQUEST', req: reqNo });
    const off = onAbort(signal, (reason) => {
      if (call.settled) return;
      this.#call = null;
      this.#waiting = null;
      this.#endpoint.send(COORDINATOR, { type: 'CANCEL', req: reqNo });
      call.reject(new AbortError('durable central mutex entry aborted', { cause: reason }));
    });
    return call.promise.finally(off);
  }

  protected async doExit(): Promise<void> {
    this.#endpoint.send(COORDINATOR, { type: 'RELEASE', req: this.#reqNo });
    this.setState('OutCS');
  }

  protected doClose(): void {
    this.#call?.reject(new AbortError('durable central mutex closed'));
    this.#call = null;
  }

  #onMessage(from: ProcessId, msg: v.InferOutput<typeof protocol.schema>): void {
    switch (msg.type) {
      case 'GRANT':
        if (msg.req === this.#waiting) {
          this.#waiting = null;
          this.setState('InCS');
          this.#call?.resolve();
          this.#call = null;
        }
        return;
      case 'REQUEST':
        if (this.#grantedTo === null) this.#grant(from, msg.req);
        else this.#queue.push([from, msg.req]);
        return;
      case 'RELEASE':
      case 'CANCEL': {
        const i = this.#queue.findIndex(([p, q]) => p === from && q === msg.req);
        if (i >= 0) {
          this.#queue.splice(i, 1);
          return;
        }
        if (this.#grantedTo?.[0] === from) {
          this.#grantedTo = null;
          const next = this.#queue.shift();
          if (next !== undefined) this.#grant(next[0], next[1]);
        }
        return;
      }
    }
  }

  #grant(p: ProcessId, req: number): void {
    this.#grantedTo = [p, req];
    this.#endpoint.send(p, { type: 'GRANT', req });
  }
}

/**
 * A correct durable mutual exclusion for crash-recovery tests: the central mutex (P0 grants,
 * FIFO; 3 messages per CS; abort by CANCEL) as a {@link DurableCSObject} that builds from
 * `ctx.recovered`. `forget` (BROKEN on purpose) leaves the coordinator's holder (`'grantedTo'`)
 * or a requester's waiting request (`'waiting'`) out of the durable state.
 */
export function durableCentralMutex(options: { readonly forget?: ForgottenVariable } = {}): CSFactory {
  return (ctx) => new DurableCentralMutex(ctx, options.forget);
}
