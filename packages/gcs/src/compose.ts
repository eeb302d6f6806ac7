/*
 * compose(a, b) — Algorithm 3 of Kamei & Kakugawa, "Asynchronous message-passing distributed
 * algorithm for the global critical section problem", IJNC 9(2), 2019, Section 5, in general
 * form (correctness: Lemmas 5–9, Theorem 3).
 *
 *   Exit():  a.Exit();  /* state := OutCS *\/  b.Exit();
 *   Entry(): b.Entry(); /* state := InCS *\/   a.Entry();
 *
 * With #G, #A, #B the numbers of processes InCS of the composite, of a and of b, every process
 * keeps #A_i ≤ #G_i ≤ #B_i (Lemma 8's table), hence #A ≤ #G ≤ #B at all times. So if a solves
 * (l_a, k_a) and b solves (l_b, k_b), the composite keeps l_a ≤ #G ≤ k_b: it solves the global
 * (l_a, k_b)-CS problem whenever l_a < k_b, provided a, b and the composite start in the same
 * (safe) configuration (Lemmas 5–7) — for (l,k)-GCS, a = MUTIN(l) and b = k-mutual exclusion.
 * Liveness (Lemma 9) needs a.Entry() and b.Exit() never to block forever, as in MUTIN and its
 * complement.
 */
import {
  AbortError,
  ConfigurationError,
  type CSFactory,
  type CSObject,
  CSObjectBase,
  type CSState,
  CSMICError,
  type DurableCSObject,
  isCSObject,
  isDurableCSObject,
  type ProcessContext,
} from '@critsec/core';
import {
  COMPOSE_DURABLE_FORMAT,
  type ComposeDurableState,
  type ComposePhase,
  checkInnerStates,
  parseComposeDurable,
} from './compose-durable.js';

/** Options of {@link compose}. */
export interface ComposeOptions {
  /**
   * Channel names of the two inner objects on the process's endpoint (factories only).
   * Default `['a', 'b']`; `gcs` uses `['lmin', 'kmex']`.
   */
  readonly channels?: readonly [string, string];
}

/** A CS object made by {@link compose}: Algorithm 3 over `a` and `b`. */
export interface ComposedObject extends CSObject {
  /** The object whose Exit() runs first (and Entry() last): the lower bound, e.g. `lmin`. */
  readonly a: CSObject;
  /** The object whose Entry() runs first (and Exit() last): the upper bound, e.g. `kmex`. */
  readonly b: CSObject;
  /**
   * `{ state, pending, phase, a: a.inspect(), b: b.inspect() }` — present only when both inner
   * objects have `inspect()` (used by the schedule explorer of `@critsec/testing`).
   */
  readonly inspect?: () => unknown;
  /**
   * Crash recovery (issue 27): the composite's state and phase with `a`'s and `b`'s durable
   * states nested ({@link ComposeDurableState}). Present only when both inner objects are
   * `DurableCSObject`s.
   */
  readonly durableState?: () => ComposeDurableState;
  /**
   * Completes a recovery (present with {@link durableState}): both inner objects recover
   * (each ends the call the crash cut, as it documents), then the composite's own call ends as
   * an aborted or a completed one would — withdrawn when its first inner call was withdrawn,
   * completed (the state flipped, the second inner call made) when that call went through.
   * Resolves then; at once on a fresh object.
   * @throws CSMICError (rejects) while a call is in flight.
   */
  readonly recover?: () => Promise<void>;
}

type Phase = ComposePhase;

/** One process of Algorithm 3, over two inner objects that start in its own state. */
class ComposedCS extends CSObjectBase implements ComposedObject {
  readonly a: CSObject;
  readonly b: CSObject;
  readonly inspect?: () => unknown;
  readonly durableState?: () => ComposeDurableState;
  readonly recover?: () => Promise<void>;
  #phase: Phase = 'idle';
  /** The recovery owed by an object built from a recovered state (memoized), or null. */
  #recovery: (() => Promise<void>) | null = null;

  constructor(a: CSObject, b: CSObject, restored?: ComposeDurableState) {
    super(a.id, restored?.state ?? a.state);
    this.a = a;
    this.b = b;
    this.forwardErrors(a);
    this.forwardErrors(b);
    if (isDurableCSObject(a) && isDurableCSObject(b)) {
      const { id } = this;
      this.durableState = () => ({
        ...{ format: COMPOSE_DURABLE_FORMAT, id, state: this.state, phase: this.#phase },
        ...{ a: a.durableState(), b: b.durableState() },
      });
      this.recover = async () => {
        if (this.pending !== null)
          throw new CSMICError(`compose: recover() on P${id} while ${this.pending}() is in flight`);
        await this.#recovery?.();
      };
      if (restored !== undefined) {
        this.#phase = restored.phase;
        let run: Promise<void> | undefined;
        this.#recovery = () => (run ??= this.#endCrashedCall(a, b));
      }
    }
    const ia = (a as { inspect?: unknown }).inspect;
    const ib = (b as { inspect?: unknown }).inspect;
    if (typeof ia === 'function' && typeof ib === 'function') {
      this.inspect = () => ({
        state: this.state,
        pending: this.pending,
        phase: this.#phase,
        a: (ia as () => unknown).call(a),
        b: (ib as () => unknown).call(b),
      });
    }
  }

  /**
   * Exit(): a.Exit() (abortable as a's is), then the state flips to OutCS, then b.Exit()
   * (not abortable any more: the composite already left; it completes).
   */
  protected doExit(signal: AbortSignal | undefined): Promise<void> {
    return this.#afterRecovery('OutCS', () =>
      this.#run(
        'exit',
        'a.Exit',
        () => this.a.exit({ signal }),
        'OutCS',
        'b.Exit',
        () => this.b.exit(),
      ),
    );
  }

  /**
   * Entry(): b.Entry() (abortable as b's is), then the state flips to InCS, then a.Entry()
   * (not abortable any more; it completes).
   */
  protected doEntry(_req: void, signal: AbortSignal | undefined): Promise<void> {
    return this.#afterRecovery('InCS', () =>
      this.#run(
        'entry',
        'b.Entry',
        () => this.b.entry({ signal }),
        'InCS',
        'a.Entry',
        () => this.a.entry(),
      ),
    );
  }

  /**
   * `call()` at once — or, on a recovered object whose `recover()` was not called (issue 27),
   * once the crashed call is ended, unless that already brought the state to `to`.
   */
  #afterRecovery(to: CSState, call: () => Promise<void>): Promise<void> {
    if (this.#recovery === null) return call();
    return this.#recovery().then(() => (this.state === to ? undefined : call()));
  }

  /**
   * Algorithm 3's shape, shared by Exit() and Entry(): the first inner call (an abort or close
   * of it rejects and leaves the state unchanged; so does a close that lands just as it
   * completes), the flip (`/* state := … *\/`), the second inner call (a close during it rejects
   * the call after the flip: the composite is closed, its state the flipped one).
   */
  async #run(
    op: 'entry' | 'exit',
    firstPhase: Phase,
    first: () => Promise<void>,
    to: CSState,
    secondPhase: Phase,
    second: () => Promise<void>,
  ): Promise<void> {
    this.#phase = firstPhase;
    try {
      await first();
    } catch (err) {
      this.#phase = 'idle';
      throw err;
    }
    if (this.closed) {
      // closed while the first call completed: reject before the flip (a rejected call leaves the
      // state unchanged, CSObjectBase), and call nothing more
      this.#phase = 'idle';
      throw new AbortError(`composite P${this.id} was closed during ${op}()`);
    }
    this.setState(to);
    this.#phase = secondPhase;
    try {
      await second();
    } finally {
      this.#phase = 'idle';
    }
  }

  protected async doClose(): Promise<void> {
    await Promise.all([this.a.close(), this.b.close()]);
  }

  /**
   * Ends the composite's call a crash cut (issue 27): the inner objects recover first; a first
   * inner call that ended where it began was withdrawn (so is the composite's); one that went
   * through is followed by the flip and the second inner call, as Algorithm 3 would have.
   */
  async #endCrashedCall(a: DurableCSObject, b: DurableCSObject): Promise<void> {
    await Promise.all([a.recover(), b.recover()]);
    const phase = this.#phase;
    if (phase === 'idle') return;
    const exit = phase === 'a.Exit' || phase === 'b.Exit';
    const to: CSState = exit ? 'OutCS' : 'InCS';
    const [first, second] = exit ? [a, b] : [b, a];
    if (phase === (exit ? 'a.Exit' : 'b.Entry') && first.state !== to) {
      this.#phase = 'idle'; // withdrawn: the state stays
      return;
    }
    this.setState(to);
    this.#phase = exit ? 'b.Exit' : 'a.Entry';
    try {
      if (second.state !== to) await (exit ? second.exit() : second.entry());
    } finally {
      this.#phase = 'idle';
    }
  }
}

function checkInner(which: 'a' | 'b', o: CSObject<unknown>, id: number, state: string): void {
  if (o.takesRequest) {
    throw new ConfigurationError(
      `compose: inner object ${which} of P${id} takes a request; compose works on plain (Req = void) CS objects`,
    );
  }
  if (o.id !== id || o.state !== state) {
    throw new ConfigurationError(
      `compose: inner object ${which} is P${o.id} ${o.state}, expected P${id} ${state} ` +
        '(Algorithm 3 needs state_i = a.state_i = b.state_i initially, Lemma 5)',
    );
  }
  if (o.pending !== null) {
    throw new ConfigurationError(`compose: inner object ${which} of P${id} has a ${o.pending}() in flight`);
  }
}

function composeObjects(a: CSObject<unknown>, b: CSObject<unknown>): ComposedObject {
  checkInner('a', a, a.id, a.state);
  checkInner('b', b, a.id, a.state);
  return new ComposedCS(a as CSObject, b as CSObject);
}

function composeFactories(a: CSFactory<unknown>, b: CSFactory<unknown>, options: ComposeOptions): CSFactory {
  const [chA, chB] = options.channels ?? ['a', 'b'];
  if (typeof chA !== 'string' || typeof chB !== 'string' || chA === chB || chA === '' || chB === '') {
    throw new ConfigurationError(
      `compose: channels must be two different non-empty names, got ${JSON.stringify(options.channels)}`,
    );
  }
  return (ctx: ProcessContext) => {
    // issue 27: a restarted process resumes from its recovered state; each inner factory checks its part
    const restored = ctx.recovered === undefined ? undefined : parseComposeDurable(ctx.recovered, ctx.id);
    const inner = (ch: string, part: 'a' | 'b') => ({
      ...{ id: ctx.id, n: ctx.n, endpoint: ctx.endpoint.channel(ch), initial: ctx.initial },
      ...(restored === undefined ? {} : { recovered: restored[part] }),
      ...(ctx.clock === undefined ? {} : { clock: ctx.clock }), // issue 28: time bounds need it
      ...(ctx.suspicions === undefined ? {} : { suspicions: ctx.suspicions }),
    });
    const oa = a(inner(chA, 'a'));
    let ob: CSObject<unknown> | undefined;
    try {
      ob = b(inner(chB, 'b'));
      const state = ctx.initial[ctx.id]!;
      checkInner('a', oa, ctx.id, restored === undefined ? state : oa.state);
      checkInner('b', ob, ctx.id, restored === undefined ? state : ob.state);
      if (restored !== undefined) {
        if (!isDurableCSObject(oa) || !isDurableCSObject(ob)) {
          throw new ConfigurationError(
            `compose: P${ctx.id} was given a recovered state, but an inner object is not durable (no DurableCSObject)`,
          );
        }
        checkInnerStates(restored, oa.state, ob.state);
      }
      return new ComposedCS(oa as CSObject, ob as CSObject, restored);
    } catch (err) {
      void oa.close();
      void ob?.close();
      throw err;
    }
  };
}

/**
 * Algorithm 3 in general form (global-CS paper, Sec. 5): `exit` = `a.exit` then `b.exit`,
 * `entry` = `b.entry` then `a.entry`. The composite's state flips right after the first inner
 * call (and `statechange` fires then); the promise resolves after both.
 *
 * Guarantee (Lemmas 5–9): `#a ≤ #G ≤ #b` at all times, so with `a` solving (l_a, ·) and `b`
 * solving (·, k_b) the composite solves the global (l_a, k_b)-CS problem when `l_a < k_b`. The
 * (l,k)-GCS is `compose(mutin({ l }), kMutex({ k }))` — see {@link gcs}.
 *
 * - two **factories** → a factory; the inner objects get the same context, on the channels
 *   `a` and `b` of the process's endpoint (or `options.channels`);
 * - two **live objects** of the same process, in the same state → a composite object over them.
 *
 * Abort: an aborted call withdraws the first inner call (as that object allows) and leaves the
 * state unchanged; once the first inner call completed, the state has flipped and the second
 * runs to completion. `close()` closes both inner objects.
 *
 * Crash recovery (issue 27): when both inner objects are durable, so is the composite —
 * `durableState()` nests theirs ({@link ComposeDurableState}), the factory resumes each inner
 * object from its part of `ctx.recovered` (and refuses a state breaking Lemma 8's
 * `#A_i ≤ #G_i ≤ #B_i`), and `recover()` ends the crashed call as an abort or a completion would.
 *
 * @throws ConfigurationError if an inner object takes a request, does not start in the state
 *   the initial configuration gives the process (Lemma 5), if `ctx.recovered` is refused (by
 *   `compose` or an inner factory, or an inner object is not durable), or the channel names are not two
 *   different non-empty names; or if the arguments are neither two factories nor two objects.
 */
export function compose(a: CSFactory, b: CSFactory, options?: ComposeOptions): CSFactory;
export function compose(a: CSObject, b: CSObject): ComposedObject;
export function compose(
  a: CSFactory | CSObject,
  b: CSFactory | CSObject,
  options: ComposeOptions = {},
): CSFactory | ComposedObject {
  if (typeof a === 'function' && typeof b === 'function') {
    return composeFactories(a as CSFactory<unknown>, b as CSFactory<unknown>, options);
  }
  if (isCSObject(a) && isCSObject(b)) {
    if (a.id !== b.id) {
      throw new ConfigurationError(
        `compose: the two objects belong to different processes (P${a.id}, P${b.id})`,
      );
    }
    return composeObjects(a, b);
  }
  throw new ConfigurationError('compose: expected two CS factories or two CS objects of the same process');
}
