/**
 * The one setup object of the transport compliance suite (`@critsec/testing/transport`): what
 * the transport's package passes ({@link TransportComplianceSetup}), its defaults resolved into a
 * {@link TransportComplianceContext} that each concern's registrar receives, and
 * {@link withTransport}, which every test runs in.
 */
import type { Endpoint } from '@critsec/core';

/** The test-registration function of the runner (vitest's or jest's `it`). */
export type TransportTestFn = (name: string, fn: () => Promise<void>, timeout?: number) => void;

/** A connected group of endpoints under test. */
export interface TransportUnderTest {
  /** Root endpoint of each process, by id (`endpoints[i].self === i`). */
  readonly endpoints: readonly Endpoint[];
  /** Lets the network make progress until `done()` holds (or rejects when the network stops making progress). */
  drive(done: () => boolean): Promise<void>;
  /** Releases everything (sockets, timers). */
  teardown(): Promise<void>;
}

/** What {@link transportCompliance} needs. */
export interface TransportComplianceSetup {
  /** The transport's name, in test titles. */
  readonly name: string;
  /** The runner's `it`, to register the tests. */
  readonly it: TransportTestFn;
  /** Creates `n` connected endpoints. */
  setup(n: number): Promise<TransportUnderTest>;
  /** Processes per test (default 4). */
  readonly n?: number;
  /** Messages per (from, to, channel) stream (default 50). */
  readonly messages?: number;
  /**
   * Timeout per test in ms (default none: the runner's own per-test timeout applies; bound a real
   * network by progress in `drive`, not by a deadline).
   */
  readonly timeout?: number;
}

/** A {@link TransportComplianceSetup} with its defaults resolved, handed to every registrar. */
export interface TransportComplianceContext {
  /** The setup as the transport's package wrote it. */
  readonly setup: TransportComplianceSetup;
  /** The runner's `it`. */
  readonly it: TransportTestFn;
  /** Processes per test (default 4). */
  readonly n: number;
  /** Messages per (from, to, channel) stream (default 50). */
  readonly messages: number;
  /** Timeout per test in ms (`undefined`: the runner's own). */
  readonly timeout: number | undefined;
}

/** Resolves a setup's defaults (see {@link TransportComplianceContext}). */
export function transportContext(setup: TransportComplianceSetup): TransportComplianceContext {
  return {
    setup,
    it: setup.it,
    n: setup.n ?? 4,
    messages: setup.messages ?? 50,
    timeout: setup.timeout,
  };
}

/** Creates the `n` endpoints, runs `body` on them and tears them down, whatever happens. */
export async function withTransport(
  ctx: TransportComplianceContext,
  body: (t: TransportUnderTest) => Promise<void> | void,
): Promise<void> {
  const t = await ctx.setup.setup(ctx.n);
  try {
    await body(t);
  } finally {
    await t.teardown();
  }
}

/** Throws `Error(message)` unless `cond` holds. */
export function check(cond: boolean, message: string): asserts cond {
  if (!cond) throw new Error(message);
}
