/**
 * The manager's control channel (`<prefix>/ctl`): the `ifAvailable` probe and `query()`. Each
 * member answers from its own state at the instant it handles the question; the asker gathers
 * the answers (one round trip). Nothing here touches a protocol instance's state: the answers
 * read `durableState()`, which is pure.
 */
import { AbortError, type Endpoint, type ProcessId } from '@critsec/core';
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

/** The control channel of one member. */
export class Control {
  #next = 0;
  readonly #probes = new Map<number, Gathering<boolean>>();
  readonly #queries = new Map<number, Gathering<StateMessage>>();
  readonly #off: () => void;

  constructor(
    readonly endpoint: Endpoint,
    answers: ControlAnswers,
    onError: (err: Error) => void,
  ) {
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

  /** Asks `members` whether their arbiter for `name` is free for `h` units: true when all say so. */
  probe(members: readonly ProcessId[], kind: 'x' | 's', name: string, h: number): Promise<boolean> {
    return this.#gather(this.#probes, members, { type: 'PROBE', kind, name, h }, undefined).then((a) =>
      [...a.values()].every((f) => f),
    );
  }

  /** Asks every member for its own holds and waits; resolves with every answer. */
  query(signal: AbortSignal | undefined): Promise<Map<ProcessId, StateMessage>> {
    return this.#gather(this.#queries, this.endpoint.peers, { type: 'QUERY' }, signal);
  }

  close(): void {
    this.#off();
  }

  #gather<T>(
    table: Map<number, Gathering<T>>,
    members: readonly ProcessId[],
    msg: { type: 'PROBE'; kind: 'x' | 's'; name: string; h: number } | { type: 'QUERY' },
    signal: AbortSignal | undefined,
  ): Promise<Map<ProcessId, T>> {
    if (signal?.aborted) return Promise.reject(new AbortError(undefined, { cause: signal.reason }));
    const q = this.#next++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        table.delete(q);
        reject(new AbortError(undefined, { cause: signal?.reason }));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      table.set(q, {
        from: new Set(members),
        answers: new Map(),
        done: (a) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(a);
        },
      });
      for (const m of members) this.endpoint.send(m, { ...msg, q });
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
