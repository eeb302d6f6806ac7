/**
 * Reference CS objects for testing the tests: one correct trivial mutual exclusion (a central
 * coordinator) that must pass the compliance suite, deliberately broken ones the suite must
 * catch, and a stub for tests of wrappers and guards. Not algorithms for production.
 */
import {
  AbortError,
  ConfigurationError,
  type CSFactory,
  CSObjectBase,
  type CSState,
  type Endpoint,
  type ProcessContext,
  type ProcessId,
} from '@critsec/core';
import { Deferred, onAbort } from '@critsec/core/kit';
import { counterSchema, defineProtocol } from '@critsec/transport';
import * as v from 'valibot';

const centralProtocol = defineProtocol(
  'central-mutex',
  v.variant('type', [
    v.object({ type: v.literal('REQUEST'), req: counterSchema }),
    v.object({ type: v.literal('GRANT'), req: counterSchema }),
    v.object({ type: v.literal('RELEASE'), req: counterSchema }),
    v.object({ type: v.literal('CANCEL'), req: counterSchema }),
  ]),
);

const COORDINATOR = 0;

class CentralMutex extends CSObjectBase {
  readonly #endpoint: Endpoint;
  readonly #off: () => void;
  /** Coordinator only: who holds the grant, and the FIFO queue of waiting (process, req). */
  #grantedTo: { p: ProcessId; req: number } | null = null;
  readonly #queue: { p: ProcessId; req: number }[] = [];
  /** Requester: the number of its current request, and the grant it waits for. */
  #reqNo = 0;
  #waiting: Deferred | null = null;

  constructor(ctx: ProcessContext) {
    super(ctx.id, ctx.initial[ctx.id]!);
    this.#endpoint = ctx.endpoint;
    const holders = ctx.initial.flatMap((s, i) => (s === 'InCS' ? [i] : []));
    if (holders.length > 1) {
      throw new ConfigurationError(
        `central mutex: at most one process may start InCS, got ${holders.join(', ')}`,
      );
    }
    if (ctx.id === COORDINATOR && holders.length === 1) this.#grantedTo = { p: holders[0]!, req: 0 };
    this.#off = centralProtocol.listen(
      ctx.endpoint,
      (from, msg) => this.#onMessage(from, msg),
      (e) => this.reportError(e),
    );
  }

  protected doEntry(_req: void, signal: AbortSignal | undefined): Promise<void> {
    const reqNo = ++this.#reqNo;
    const waiting = new Deferred();
    this.#waiting = waiting;
    this.#endpoint.send(COORDINATOR, { type: 'REQUEST', req: reqNo });
    const off = onAbort(signal, (reason) => {
      if (waiting.settled) return;
      this.#waiting = null;
      this.#endpoint.send(COORDINATOR, { type: 'CANCEL', req: reqNo });
      waiting.reject(new AbortError('central mutex entry aborted', { cause: reason }));
    });
    return waiting.promise.finally(off);
  }

  protected async doExit(): Promise<void> {
    this.#endpoint.send(COORDINATOR, { type: 'RELEASE', req: this.#reqNo });
  }

  protected doClose(): void {
    this.#off();
    this.#waiting?.reject(new AbortError('central mutex closed'));
    this.#waiting = null;
  }

  #onMessage(from: ProcessId, msg: v.InferOutput<typeof centralProtocol.schema>): void {
    switch (msg.type) {
      case 'GRANT':
        if (msg.req === this.#reqNo && this.#waiting !== null) {
          this.#waiting.resolve();
          this.#waiting = null;
        }
        return;
      case 'REQUEST':
        if (this.#grantedTo === null) this.#grant(from, msg.req);
        else this.#queue.push({ p: from, req: msg.req });
        return;
      case 'RELEASE':
      case 'CANCEL': {
        const i = this.#queue.findIndex((q) => q.p === from && q.req === msg.req);
        if (i >= 0) {
          this.#queue.splice(i, 1);
          return;
        }
        if (this.#grantedTo?.p === from) {
          this.#grantedTo = null;
          const next = this.#queue.shift();
          if (next !== undefined) this.#grant(next.p, next.req);
        }
        return;
      }
    }
  }

  #grant(p: ProcessId, req: number): void {
    this.#grantedTo = { p, req };
    this.#endpoint.send(p, { type: 'GRANT', req });
  }
}

/**
 * A correct, trivial mutual exclusion: every request goes to P0, which grants one at a time in
 * FIFO order. 3 messages per CS (REQUEST, GRANT, RELEASE); supports abort (CANCEL).
 */
export function centralMutex(): CSFactory {
  return (ctx) => new CentralMutex(ctx);
}

class UnsafeMutex extends CSObjectBase {
  constructor(ctx: ProcessContext) {
    super(ctx.id, ctx.initial[ctx.id]!);
  }
  protected async doEntry(): Promise<void> {}
  protected async doExit(): Promise<void> {}
  protected doClose(): void {}
}

/** BROKEN on purpose: enters without asking anybody (violates mutual exclusion). */
export function unsafeMutex(): CSFactory {
  return (ctx) => new UnsafeMutex(ctx);
}

class NeverGrantMutex extends CSObjectBase {
  readonly #endpoint: Endpoint;
  #waiting: Deferred | null = null;
  constructor(ctx: ProcessContext) {
    super(ctx.id, ctx.initial[ctx.id]!);
    this.#endpoint = ctx.endpoint;
  }
  protected doEntry(_req: void, signal: AbortSignal | undefined): Promise<void> {
    const waiting = new Deferred();
    this.#waiting = waiting;
    this.#endpoint.send(COORDINATOR, { type: 'REQUEST', req: 0 });
    const off = onAbort(signal, (reason) => waiting.reject(new AbortError('aborted', { cause: reason })));
    return waiting.promise.finally(off);
  }
  protected async doExit(): Promise<void> {}
  protected doClose(): void {
    this.#waiting?.reject(new AbortError('closed'));
  }
}

/** BROKEN on purpose: asks and is never answered (every entry hangs: a liveness failure). */
export function neverGrantMutex(): CSFactory {
  return (ctx) => new NeverGrantMutex(ctx);
}

class LeakyAbortMutex extends CentralMutex {
  protected override doEntry(req: void, signal: AbortSignal | undefined): Promise<void> {
    // ignores the signal: the coordinator never hears that the request was withdrawn
    return super.doEntry(req, undefined).then(() => {
      if (signal?.aborted) throw new AbortError('pretends to abort while holding the grant');
    });
  }
}

/** BROKEN on purpose: an aborted entry keeps its grant (the cluster deadlocks after an abort). */
export function leakyAbortMutex(): CSFactory {
  return (ctx) => new LeakyAbortMutex(ctx);
}

/**
 * A stand-in CS object for tests of wrappers and guards (`complement`, `compose`, MUTIN's `mx`):
 * every call completes at once and sends nothing — it is no mutual exclusion, it never asks
 * anybody — and {@link StubCS.fail} makes it emit an `error` event, as a protocol does for an
 * unexpected message.
 *
 * @example
 * ```ts
 * const plain = new StubCS(0);                                  // P0, OutCS, entry()
 * const units = new StubCS<number>(1, 'InCS', { takesRequest: true }); // entry(h)
 * ```
 */
export class StubCS<Req = void> extends CSObjectBase<Req> {
  /** Process `id`, starting in `state` (default OutCS); `takesRequest` as for any CS object. */
  constructor(id: ProcessId, state: CSState = 'OutCS', options: { readonly takesRequest?: boolean } = {}) {
    super(id, state, options);
  }
  protected async doEntry(): Promise<void> {}
  protected async doExit(): Promise<void> {}
  protected doClose(): void {}
  /** Emits `err` as an `error` event. */
  fail(err: Error): void {
    this.reportError(err);
  }
}
