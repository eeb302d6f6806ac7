/**
 * The manager's control channel (`<prefix>/ctl`): the `ifAvailable` probe and `query()`. Each
 * member answers from its own state at the instant it handles the question; the asker gathers
 * the answers (one round trip). Nothing here touches a protocol instance's state: the answers
 * read `durableState()`, which is pure.
 *
 * A member this one suspects (`Suspicions` of the root endpoint: a peer that left, or down or
 * silent past the transport's detector timeout) is not waited for: it is not asked, and a member
 * that becomes suspected while a question is out is dropped from it. A probe whose quorum holds
 * a suspect answers "not free" (the lock cannot be granted promptly); a query reports the members
 * it has no answer from as `unreachable`. Without suspicions every member is waited for.
 */
import { AbortError, type Endpoint, type ProcessId, type Suspicions } from '@critsec/core';
import { defineProtocol } from '@critsec/transport';
import * as v from 'valibot';
import { MAX_LOCK_NAME_LENGTH } from './names.js';

const name = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_LOCK_NAME_LENGTH));
const qid = v.pipe(v.number(), v.integer(), v.minValue(0));
const mode = v.picklist(['exclusive', 'shared']);
const controlSchema = v.variant('type', [
  v.object({ type: v.literal('PROBE'), q: qid, kind: v.picklist(['x', 's']), name, h: qid }),
  v.object({ type: v.literal('PROBED'), q: qid, free: v.boolean() }),
  v.object({ type: v.literal('QUERY'), q: qid }),
  v.object({
    type: v.literal('STATE'),
    q: qid,
    held: v.array(v.tuple([name, mode, v.pipe(v.number(), v.integer(), v.minValue(-1))])),
    pending: v.array(v.tuple([name, mode])),
  }),
]);

/** A control message (see the module comment). */
type ControlMessage = v.InferOutput<typeof controlSchema>;
type StateMessage = Extract<ControlMessage, { type: 'STATE' }>;

const controlProtocol = defineProtocol('locks-control', controlSchema);

/** What a member answers with, from its own state. */
export interface ControlAnswers {
  /** Whether this member's arbiter for the name would grant `h` units at once. */
  free(kind: 'x' | 's', name: string, h: number): boolean;
  /** This member's own holds and waits. */
  state(): Pick<StateMessage, 'held' | 'pending'>;
}

/** One question in flight: the answers expected and how to settle. */
interface Gathering<T> {
  readonly from: Set<ProcessId>;
  readonly answers: Map<ProcessId, T>;
  readonly done: (answers: Map<ProcessId, T>) => void;
}

/** What a gathering settled with: the answers, and the members dropped as suspected. */
export interface Gathered<T> {
  readonly answers: Map<ProcessId, T>;
  /** Members not asked or no longer waited for because this member suspects them. */
  readonly unreachable: readonly ProcessId[];
}

/** The control channel of one member. */
export class Control {
  #next = 0;
  readonly #probes = new Map<number, Gathering<boolean>>();
  readonly #queries = new Map<number, Gathering<StateMessage>>();
  readonly #off: () => void;
  readonly #offSuspicions: () => void;

  constructor(
    readonly endpoint: Endpoint,
    answers: ControlAnswers,
    onError: (err: Error) => void,
    readonly suspicions?: Suspicions,
  ) {
    this.#offSuspicions = suspicions?.onChange(() => this.#dropSuspected()) ?? (() => {});
    this.#off = controlProtocol.listen(
      endpoint,
      (from, msg) => {
        switch (msg.type) {
          case 'PROBE':
            endpoint.send(from, { type: 'PROBED', q: msg.q, free: answers.free(msg.kind, msg.name, msg.h) });
            return;
          case 'QUERY':
            endpoint.send(from, { type: 'STATE', q: msg.q, ...answers.state() });
            return;
          case 'PROBED':
            this.#answer(this.#probes, msg.q, from, msg.free);
            return;
          case 'STATE':
            this.#answer(this.#queries, msg.q, from, msg);
        }
      },
      onError,
    );
  }

  /**
   * Asks `members` whether their arbiter for `name` is free for `h` units: true when all say so;
   * false at once when one of them is suspected, or becomes so before it answers.
   */
  async probe(members: readonly ProcessId[], kind: 'x' | 's', name: string, h: number): Promise<boolean> {
    const g = await this.#gather(this.#probes, members, { type: 'PROBE', kind, name, h }, undefined);
    return g.unreachable.length === 0 && [...g.answers.values()].every((f) => f);
  }

  /** Asks every member not suspected for its own holds and waits. */
  query(signal: AbortSignal | undefined): Promise<Gathered<StateMessage>> {
    return this.#gather(this.#queries, this.endpoint.peers, { type: 'QUERY' }, signal);
  }

  close(): void {
    this.#off();
    this.#offSuspicions();
  }

  /** The suspicions changed: stop waiting for the suspects in every question out. */
  #dropSuspected(): void {
    const suspected = this.suspicions?.suspected();
    if (suspected === undefined || suspected.size === 0) return;
    for (const table of [this.#probes, this.#queries] as Map<number, Gathering<unknown>>[]) {
      for (const [q, g] of table) {
        for (const p of suspected) if (!g.answers.has(p)) g.from.delete(p);
        if (g.answers.size === g.from.size) {
          table.delete(q);
          g.done(g.answers);
        }
      }
    }
  }

  #gather<T>(
    table: Map<number, Gathering<T>>,
    members: readonly ProcessId[],
    msg: { type: 'PROBE'; kind: 'x' | 's'; name: string; h: number } | { type: 'QUERY' },
    signal: AbortSignal | undefined,
  ): Promise<Gathered<T>> {
    if (signal?.aborted) return Promise.reject(new AbortError(undefined, { cause: signal.reason }));
    const q = this.#next++;
    const suspected = this.suspicions?.suspected() ?? new Set<ProcessId>();
    const asked = members.filter((m) => m === this.endpoint.self || !suspected.has(m));
    const settled = (answers: Map<ProcessId, T>): Gathered<T> => ({
      answers,
      unreachable: members.filter((m) => !answers.has(m)),
    });
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        table.delete(q);
        reject(new AbortError(undefined, { cause: signal?.reason }));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = (a: Map<ProcessId, T>) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(settled(a));
      };
      if (asked.length === 0) return done(new Map());
      table.set(q, { from: new Set(asked), answers: new Map(), done });
      for (const m of asked) this.endpoint.send(m, { ...msg, q });
    });
  }

  #answer<T>(table: Map<number, Gathering<T>>, q: number, from: ProcessId, value: T): void {
    const g = table.get(q);
    if (g === undefined || !g.from.has(from) || g.answers.has(from)) return;
    g.answers.set(from, value);
    if (g.answers.size === g.from.size) {
      table.delete(q);
      g.done(g.answers);
    }
  }
}
