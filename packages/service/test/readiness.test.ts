/**
 * `/readyz` with and without quorum reselection: `quorumReadiness` step by step over a fake
 * transport view (a peer disconnected, then suspected, then a second one), and three in-process
 * members over TCP where one leaves — with reselection the member whose quorum held it is ready
 * again and grants; without, it stays not ready.
 */
import type { ProcessId, Suspicions } from '@critsec/core';
import { majority } from '@critsec/coteries';
import { describe, expect, it } from 'vitest';
import { quorumReadiness } from '../src/index.js';
import { call, type Members, startMembers, until } from './members.js';

describe('quorumReadiness', () => {
  it('majority(3), P1 (Q_1 = {1, 2}): not ready while P2 is down and not yet suspected; with reselection ready again once it is', () => {
    const down = new Set<ProcessId>();
    const suspected = new Set<ProcessId>();
    const suspicions: Suspicions = { suspected: () => suspected, onChange: () => () => {} };
    const view = (reselect: boolean) =>
      quorumReadiness({
        coterie: majority(3),
        id: 1,
        reselect,
        isConnected: (p) => !down.has(p),
        suspicions,
      });
    const [on, off] = [view(true), view(false)];
    const ready = { ready: true, detail: 'quorum {1, 2} connected' };
    expect([on(), off()]).toEqual([ready, ready]);
    down.add(2); // the connection dropped; the detector has not suspected it yet
    const missing = { ready: false, detail: 'not connected to P2 of its quorum' };
    expect([on(), off()]).toEqual([missing, missing]);
    suspected.add(2);
    expect(on()).toEqual({ ready: true, detail: 'quorum {0, 1} connected (reselected: P2 suspected)' });
    expect(off()).toEqual(missing);
    suspected.add(0); // no quorum of the family avoids both
    expect(on()).toEqual({ ready: false, detail: 'no quorum of majority n=3 avoids the suspected P0, P2' });
  });
});

describe('/readyz of in-process members over TCP when one leaves', () => {
  /** Starts 3 members, closes P2 (its BYE: suspected at once), returns the members and P1's /readyz status once settled. */
  async function withoutP2(reselect: boolean, expected: number): Promise<Members> {
    const m = await startMembers(3, { reselect, fencing: true });
    const status = async (id: number) => (await call(m.services[id]!, 'GET', '/readyz')).status;
    await until(async () => (await status(0)) === 200 && (await status(1)) === 200, 'every member ready');
    await m.services[2]!.close({ graceMs: 0 });
    await m.transports[2]!.close();
    await until(async () => (await status(1)) === expected, `P1's /readyz ${expected}`);
    return m;
  }

  it('with reselection: P1 (its quorum held P2) is ready again and grants', async () => {
    const m = await withoutP2(true, 200);
    try {
      const s = m.services[1]!;
      expect((await call(s, 'GET', '/readyz')).body).toMatchObject({
        detail: 'quorum {0, 1} connected (reselected: P2 suspected)',
      });
      const session = await call(s, 'POST', '/v1/sessions', { ttlMs: 3_600_000 });
      const got = await call(s, 'POST', '/v1/locks/x/acquire', { session: session.body.id });
      expect(got.status).toBe(200);
      expect(typeof got.body.token).toBe('number');
      expect((await call(s, 'POST', '/v1/locks/x/release', { session: session.body.id })).status).toBe(200);
    } finally {
      await m.close();
    }
  });

  it('without reselection: P1 stays not ready (P0, whose quorum avoids P2, stays ready)', async () => {
    const m = await withoutP2(false, 503);
    try {
      expect((await call(m.services[1]!, 'GET', '/readyz')).body).toMatchObject({
        detail: 'not connected to P2 of its quorum',
      });
      expect((await call(m.services[0]!, 'GET', '/readyz')).status).toBe(200);
    } finally {
      await m.close();
    }
  });
});
