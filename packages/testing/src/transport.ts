/**
 * `@critsec/testing/transport` — the transport compliance suite: what every transport (the
 * simulator, TCP, yours) must guarantee to the algorithms above it (DESIGN.md 3.2): reliable,
 * FIFO per (from, to, channel), self-delivery, nested channels, typed errors for unknown peers.
 *
 * @example
 * ```ts
 * import { it } from 'vitest';
 * import { transportCompliance } from '@critsec/testing/transport';
 * transportCompliance({ it, name: 'my-transport', setup: async (n) => ({ endpoints, drive, teardown }) });
 * ```
 *
 * @packageDocumentation
 */
import type { Endpoint, Message, ProcessId } from '@critsec/core';

/** The test-registration function of the runner (vitest's or jest's `it`). */
export type TransportTestFn = (name: string, fn: () => Promise<void>, timeout?: number) => void;

/** A connected group of endpoints under test. */
export interface TransportUnderTest {
  /** Root endpoint of each process, by id (`endpoints[i].self === i`). */
  readonly endpoints: readonly Endpoint[];
  /** Lets the network make progress until `done()` holds (or rejects after its own timeout). */
  drive(done: () => boolean): Promise<void>;
  /** Releases everything (sockets, timers). */
  teardown(): Promise<void>;
}

/** What {@link transportCompliance} needs. */
export interface TransportComplianceSetup {
  readonly name: string;
  readonly it: TransportTestFn;
  /** Creates `n` connected endpoints. */
  setup(n: number): Promise<TransportUnderTest>;
  /** Processes per test (default 4). */
  readonly n?: number;
  /** Messages per (from, to, channel) stream (default 50). */
  readonly messages?: number;
  /** Timeout per test in ms (default 60,000). */
  readonly timeout?: number;
}

function check(cond: boolean, message: string): asserts cond {
  if (!cond) throw new Error(message);
}

/** Registers the transport compliance tests. */
export function transportCompliance(setup: TransportComplianceSetup): void {
  const n = setup.n ?? 4;
  const m = setup.messages ?? 50;
  const timeout = setup.timeout ?? 60_000;
  const { it } = setup;

  it(
    `${setup.name}: every (from, to, channel) stream arrives complete, in order, exactly once — self included`,
    async () => {
      const t = await setup.setup(n);
      try {
        const paths = [['a'], ['b'], ['a', 'inner']];
        const channel = (ep: Endpoint, p: string[]) => p.reduce((e, name) => e.channel(name), ep);
        const next = new Map<string, number>();
        const errors: string[] = [];
        let received = 0;
        t.endpoints.forEach((ep, i) => {
          for (const p of paths) {
            channel(ep, p).onMessage((from: ProcessId, msg: Message) => {
              const key = `${from}>${i}/${p.join('/')}`;
              const seq = (msg as Message & { seq: number }).seq;
              const want = next.get(key) ?? 0;
              if (seq !== want) errors.push(`${key}: got seq ${seq}, expected ${want}`);
              next.set(key, seq + 1);
              received++;
            });
          }
        });
        for (let s = 0; s < m; s++) {
          for (let from = 0; from < n; from++) {
            for (let to = 0; to < n; to++)
              for (const p of paths) channel(t.endpoints[from]!, p).send(to, { type: 'SEQ', seq: s });
          }
        }
        const total = n * n * paths.length * m;
        await t.drive(() => received >= total || errors.length > 0);
        check(errors.length === 0, `out of order or duplicated: ${errors.slice(0, 5).join('; ')}`);
        check(received === total, `received ${received} of ${total} messages`);
      } finally {
        await t.teardown();
      }
    },
    timeout,
  );

  it(
    `${setup.name}: peers and path are reported; an unknown peer is refused with TransportError`,
    async () => {
      const t = await setup.setup(n);
      try {
        t.endpoints.forEach((ep, i) => {
          check(ep.self === i, `endpoint ${i} says self = ${ep.self}`);
          check(
            ep.peers.length === n && ep.peers.every((p, k) => p === k),
            `endpoint ${i}: peers ${JSON.stringify(ep.peers)}`,
          );
          check(
            ep.path === '' && ep.channel('x').channel('y').path === 'x/y',
            `endpoint ${i}: wrong channel paths`,
          );
        });
        let threw: unknown;
        try {
          t.endpoints[0]!.send(n + 5, { type: 'X' });
        } catch (e) {
          threw = e;
        }
        check(
          (threw as { code?: string } | undefined)?.code === 'TRANSPORT',
          `send to an unknown peer gave ${String(threw)}`,
        );
      } finally {
        await t.teardown();
      }
    },
    timeout,
  );

  it(
    `${setup.name}: a message for a channel nobody listens on does not disturb the others`,
    async () => {
      const t = await setup.setup(n);
      try {
        let got = 0;
        t.endpoints[1]!.channel('live').onMessage(() => got++);
        t.endpoints[0]!.channel('nobody').send(1, { type: 'LOST' });
        t.endpoints[0]!.channel('live').send(1, { type: 'OK' });
        await t.drive(() => got === 1);
        check(got === 1, 'the live channel did not get its message');
      } finally {
        await t.teardown();
      }
    },
    timeout,
  );
}
