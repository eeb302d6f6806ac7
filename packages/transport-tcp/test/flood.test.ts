/**
 * Issue 15, connection-slot exhaustion (fast variant; the 1,000-connection run is in
 * flood.long.test.ts): 200 idle unauthenticated connections against the listener of P2 while its
 * links are dropped and re-established — Maekawa over mutual TLS keeps completing entries.
 */
import { describe, expect, it } from 'vitest';
import { floodRun } from './flood.js';

describe('admission control under a flood of idle unauthenticated connections', () => {
  it('n = 3 Maekawa over TLS: every process keeps entering while 200 idle sockets flood P2 and its links drop', async () => {
    const r = await floodRun({ n: 3, sockets: 200, targets: [2], windowMs: 2_000, dropEveryMs: 250 });
    const s = r.stats[0]!;
    console.log(
      `flood n=3, 200 sockets: entries in the window ${JSON.stringify(r.entriesInWindow)} (warm-up ${r.entriesBefore}), ` +
        `${r.dropped} links dropped, ${r.reconnections} handshakes (reconnected after ${JSON.stringify(r.reconnectMs)} ms), ` +
        `${r.attackOpened} attack connections, ${r.logLines} log lines; ` +
        `P2 refused ${JSON.stringify(s.refused)}, unauthenticated ${JSON.stringify(s.unauthenticated)}`,
    );
    expect(r.dropped).toBeGreaterThan(0);
    expect(r.reconnections).toBeGreaterThan(0);
    for (const e of r.entriesInWindow) expect(e).toBeGreaterThan(0);
    // Thousands of refusals, but the log stays short: per transport a burst, then about one line a second.
    expect(r.logLines).toBeLessThanOrEqual(r.stats.length * (10 + 5 + 5));
  });
});
