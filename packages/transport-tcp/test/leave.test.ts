/**
 * Issue 26 §4, over mutual TLS: a CS object built after `ready()` misses no early REQUEST, and a
 * member that closes first keeps serving as an arbiter until the others close too (the graceful
 * leave of `close()`), or, past its `lingerMs`, leaves them a typed error instead of a hang.
 */
import {
  AbortError,
  type CSObject,
  type CSState,
  LeaveTimeoutError,
  PeerDepartedError,
  TransportError,
  withCS,
} from '@critsec/core';
import { majority } from '@critsec/coteries';
import { maekawa } from '@critsec/mutex';
import { waitForProgress } from '@critsec/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { TcpTransport } from '../src/index.js';
import { startCluster } from './helpers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.allSettled(cleanups.splice(0).map((c) => c()));
});

/**
 * Resolves when `work` settles; rejects when `progress()` stays the same for the test kit's
 * no-progress limit (`noProgressMs()`) — bounded by progress, not by a deadline on the whole run.
 */
async function untilStalled<T>(work: Promise<T>, progress: () => number, what: () => string): Promise<T> {
  let settled = false;
  const tracked = work.finally(() => {
    settled = true;
  });
  const watch = waitForProgress(() => settled, { what: 'the members', measure: progress, pollMs: 50 }).catch(
    (err: Error) => {
      throw new Error(`${err.message}: ${what()}`);
    },
  );
  await Promise.race([tracked, watch]);
  return tracked;
}

/** Three members over TLS with graceful close (the default lingerMs), Maekawa over majority(3) built after ready(). */
async function members() {
  const c = await startCluster(3, { lingerMs: undefined }); // the transport's default, not the helper's 0
  cleanups.push(() => Promise.all(c.transports.map((t) => t.close({ lingerMs: 0 }).catch(() => {}))));
  const initial: CSState[] = ['OutCS', 'OutCS', 'OutCS'];
  const factory = maekawa({ coterie: majority(3) });
  const objects: CSObject[] = c.transports.map((t, id) =>
    factory({ id, n: 3, endpoint: t.endpoint.channel('cs'), initial }),
  );
  cleanups.push(() => Promise.all(objects.map((o) => o.close())));
  return { transports: c.transports, objects };
}

describe('the graceful leave over TLS (issue 26 §4)', () => {
  it('a member that closes first keeps serving as an arbiter: the others complete, then all leave', async () => {
    const { transports, objects } = await members();
    const rounds = [3, 40, 40];
    const done = [0, 0, 0];
    let inCS = 0;
    let maxInCS = 0;
    const run = async (id: number) => {
      const t = transports[id] as TcpTransport;
      for (let r = 0; r < rounds[id]!; r++) {
        await withCS(objects[id]!, async () => {
          maxInCS = Math.max(maxInCS, ++inCS);
          await new Promise((res) => setImmediate(res));
          inCS--;
        });
        done[id]!++;
      }
      await t.close(); // graceful: keeps answering REQUEST/RELEASE until the others close too
      await objects[id]!.close();
      return t.endpoint.departures.aborted;
    };
    const departed = await untilStalled(
      Promise.all([0, 1, 2].map(run)),
      () => done[0]! + done[1]! + done[2]!,
      () => `rounds done ${done.join('/')} of ${rounds.join('/')}`,
    );
    expect(done).toEqual(rounds);
    expect(maxInCS).toBe(1);
    expect(departed).toEqual([false, false, false]);
    for (const t of transports) expect(() => t.endpoint.send(0, { type: 'X' })).toThrow(TransportError);
  });

  it('past lingerMs close() rejects with LeaveTimeoutError; a peer still waiting gets PeerDepartedError, not a hang', async () => {
    const { transports, objects } = await members();
    const [t0, t1] = transports as [TcpTransport, TcpTransport, TcpTransport];
    const errors: Error[] = [];
    t1.on('error', (e) => errors.push(e));
    const closing = t0.close({ lingerMs: 300 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    await expect(t0.close({ lingerMs: 5 })).rejects.toThrow(LeaveTimeoutError); // idempotent: the same leave
    const err = await closing;
    expect(err).toBeInstanceOf(LeaveTimeoutError);
    expect((err as LeaveTimeoutError).waitingFor).toEqual([1, 2]);
    expect((err as Error).message).toMatch(
      /P0 left after lingering 300 ms, but P1, P2 had not announced leaving/,
    );
    // P0 said bye: P1, still running, learns its departure and a call needing P0 fails at once
    await untilStalled(
      new Promise<void>((resolve) => {
        if (t1.endpoint.departures.aborted) resolve();
        else t1.endpoint.departures.addEventListener('abort', () => resolve());
      }),
      () => 0,
      () => 'P1 never learned that P0 departed',
    );
    expect(t1.endpoint.departures.reason).toBeInstanceOf(PeerDepartedError);
    expect((t1.endpoint.departures.reason as PeerDepartedError).peer).toBe(0);
    // P1's quorum in majority(3) holds P0: without the signal this entry would wait forever
    const entry = objects[1]!.entry({ signal: t1.endpoint.departures });
    await expect(entry).rejects.toBeInstanceOf(AbortError);
    await entry.catch((e: unknown) => expect((e as Error).cause).toBeInstanceOf(PeerDepartedError));
    expect(errors).toEqual([]);
  });

  it('close() checks lingerMs and start() after close() throws', async () => {
    const { transports } = await members();
    const t0 = transports[0]!;
    await expect(t0.close({ lingerMs: -1 })).rejects.toThrow(/lingerMs must be an integer ≥ 0, got -1/);
    await expect(t0.close({ lingerMs: 2 ** 31 })).rejects.toThrow(/at most 2147483647 ms/);
    await t0.close({ lingerMs: 0 }); // at once, as a crash would
    await expect(t0.start()).rejects.toThrow(/start\(\) after close\(\)/);
  });
});

describe('a CS object built after ready() (issue 26 §4)', () => {
  it('misses no REQUEST that arrived before it existed: it is held and handed over', async () => {
    const c = await startCluster(3);
    cleanups.push(c.close);
    const [t0, t1] = c.transports as [TcpTransport, TcpTransport, TcpTransport];
    const factory = maekawa({ coterie: majority(3) });
    const initial: CSState[] = ['OutCS', 'OutCS', 'OutCS'];
    const cs0 = factory({ id: 0, n: 3, endpoint: t0.endpoint.channel('cs'), initial });
    cleanups.push(() => cs0.close());
    const entering = cs0.entry(); // its REQUEST reaches P1 before P1 has a CS object
    await untilStalled(
      new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (t1.endpoint.held > 0) {
            clearInterval(poll);
            resolve();
          }
        }, 5);
      }),
      () => 0,
      () => 'the REQUEST never reached P1',
    );
    const objects = [1, 2].map((id) =>
      factory({ id, n: 3, endpoint: c.transports[id]!.endpoint.channel('cs'), initial }),
    );
    cleanups.push(() => Promise.all(objects.map((o) => o.close())));
    await untilStalled(
      entering,
      () => 0,
      () => 'P0 never entered',
    );
    expect(cs0.state).toBe('InCS');
    expect(t1.endpoint.held).toBe(0);
    expect(t1.endpoint.undeliverable).toBe(0);
    await cs0.exit();
  });
});
