import { IDENTITY_KEY, RECORD_PREFIX, SEQUENCE_KEY, type StoreBackend } from './backend.js';
import { StoreError } from './errors.js';
import { parseIdentity } from './identity.js';
import { checkRecord, type StoreLimits } from './limits.js';
import type {
  CommitReceipt,
  JsonValue,
  ProtocolStore,
  StoreIdentity,
  StoreSnapshot,
  StoredRecord,
} from './types.js';

/** Run `flush` once the current turn is over (real store: `setImmediate`; memory store: a microtask). */
export type TurnScheduler = (flush: () => void) => void;

type Write = readonly [string, string | undefined];

/** The durable state read from a backend's entries. */
export interface DurableState {
  readonly identity: StoreIdentity | undefined;
  readonly sequence: number;
  readonly records: Map<string, StoredRecord>;
}

/** Decode a backend's entries (`where` names the store in errors). */
export function readDurable(where: string, entries: Iterable<[string, string]>): DurableState {
  let identity: StoreIdentity | undefined;
  let sequence = 0;
  const records = new Map<string, StoredRecord>();
  for (const [key, text] of entries) {
    if (key === IDENTITY_KEY) identity = parseIdentity(where, text);
    else if (key === SEQUENCE_KEY) sequence = Number(text);
    else if (key.startsWith(RECORD_PREFIX)) {
      const space = text.indexOf(' ');
      records.set(key.slice(RECORD_PREFIX.length), {
        version: Number(text.slice(0, space)),
        value: JSON.parse(text.slice(space + 1)) as JsonValue,
      });
    }
  }
  return { identity, sequence, records };
}

interface Turn {
  readonly promise: Promise<CommitReceipt>;
  resolve(r: CommitReceipt): void;
  reject(e: unknown): void;
}

function newTurn(): Turn {
  let resolve!: (r: CommitReceipt) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<CommitReceipt>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * The one implementation of {@link ProtocolStore}'s semantics (staging, group commit per turn,
 * ordered transactions, failure), over any {@link StoreBackend}.
 */
export class GroupCommitStore implements ProtocolStore {
  readonly identity: StoreIdentity;
  readonly #backend: StoreBackend;
  readonly #where: string;
  readonly #limits: StoreLimits;
  readonly #schedule: TurnScheduler;
  readonly #records: Map<string, StoredRecord>;
  #sequence: number;
  #nextSequence: number;
  #staged = new Map<string, string | undefined>();
  #turn: Turn | undefined;
  #tail: Promise<void> = Promise.resolve();
  #closed = false;
  /** Set when the store can write no more (a failed write, a simulated crash). */
  protected dead: StoreError | undefined;

  constructor(
    backend: StoreBackend,
    where: string,
    limits: StoreLimits,
    schedule: TurnScheduler,
    identity: StoreIdentity,
    state: DurableState,
  ) {
    this.#backend = backend;
    this.#where = where;
    this.#limits = limits;
    this.#schedule = schedule;
    this.identity = identity;
    this.#records = state.records;
    this.#sequence = state.sequence;
    this.#nextSequence = state.sequence;
  }

  get sequence(): number {
    return this.#sequence;
  }

  stage(key: string, value: JsonValue | undefined): void {
    this.#assertUsable('stage');
    const text = checkRecord(this.#limits, key, value);
    this.#staged.delete(key); // a re-staged key moves to the end: writes keep staging order
    this.#staged.set(key, text);
  }

  commit(): Promise<CommitReceipt> {
    this.#assertUsable('commit');
    if (this.#turn === undefined) {
      const turn = newTurn();
      this.#turn = turn;
      this.#schedule(() => {
        if (this.#turn === turn) this.#flush();
      });
    }
    return this.#turn.promise;
  }

  load(): StoreSnapshot {
    return { identity: this.identity, sequence: this.#sequence, records: new Map(this.#records) };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    if (this.#turn !== undefined && this.dead === undefined) this.#flush();
    this.#closed = true;
    await this.#tail;
    await this.#backend.close();
  }

  /** Drop everything staged and every turn not yet written; later calls throw `error`. */
  protected abandon(error: StoreError): void {
    this.dead ??= error;
    this.#staged.clear();
    const turn = this.#turn;
    this.#turn = undefined;
    turn?.reject(error);
  }

  /** The writes staged so far, as the backend would get them (for a simulated torn write). */
  protected pendingWrites(): Write[] {
    return [...this.#staged].map(([k, t]) => [
      RECORD_PREFIX + k,
      t === undefined ? undefined : `${this.#nextSequence + 1} ${t}`,
    ]);
  }

  #assertUsable(call: string): void {
    if (this.dead !== undefined) throw this.dead;
    if (this.#closed) throw new StoreError('closed', `${call}() on the closed store at ${this.#where}`);
  }

  #flush(): void {
    const turn = this.#turn as Turn;
    this.#turn = undefined;
    const staged = this.#staged;
    this.#staged = new Map();
    if (staged.size === 0) {
      // nothing new: the receipt waits for the transactions already in flight
      this.#tail = this.#tail.then(() =>
        this.dead ? turn.reject(this.dead) : turn.resolve({ sequence: this.#sequence, records: 0 }),
      );
      return;
    }
    const sequence = ++this.#nextSequence;
    const writes: Write[] = [...staged].map(([k, t]) => [
      RECORD_PREFIX + k,
      t === undefined ? undefined : `${sequence} ${t}`,
    ]);
    writes.push([SEQUENCE_KEY, String(sequence)]);
    this.#tail = this.#tail.then(() => this.#write(turn, sequence, staged, writes));
  }

  async #write(
    turn: Turn,
    sequence: number,
    staged: Map<string, string | undefined>,
    writes: Write[],
  ): Promise<void> {
    if (this.dead !== undefined) return turn.reject(this.dead);
    try {
      await this.#backend.write(writes);
    } catch (cause) {
      this.dead ??=
        cause instanceof StoreError
          ? cause
          : new StoreError(
              'io',
              `commit ${sequence} of the store at ${this.#where} failed; the store accepts no more writes. ` +
                "Way out: stop the member, send nothing that depended on it, restart it with mode 'recover'.",
              { cause },
            );
      return turn.reject(this.dead);
    }
    for (const [key, text] of staged) {
      if (text === undefined) this.#records.delete(key);
      else this.#records.set(key, { version: sequence, value: JSON.parse(text) as JsonValue });
    }
    this.#sequence = sequence;
    turn.resolve({ sequence, records: staged.size });
  }
}
