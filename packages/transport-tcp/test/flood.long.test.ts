/**
 * Issue 15, connection-slot exhaustion at full size (long suite): 1,000 idle unauthenticated
 * connections against the listeners of a 5-member Maekawa cluster over mutual TLS, links into
 * every flooded listener dropped and re-established again and again — every member keeps
 * completing entries during the flood.
 */
import { describe, expect, it } from 'vitest';
import { floodRun } from './flood.js';

describe('admission control under a flood of 1,000 idle unauthenticated connections', () => {
  it('n = 5 Maekawa over TLS: every process keeps entering while 1,000 idle sockets flood P1 … P4 and their links drop', async () => {
    const r = await floodRun({
      n: 5,
      sockets: 1_000,
      targets: [1, 2, 3, 4],
      windowMs: 5_000,
      dropEveryMs: 200,
    });
    const refused = r.stats.map((s) => s.refused);
    console.log(
      `flood n=5, 1,000 sockets: entries in the window ${JSON.stringify(r.entriesInWindow)} (warm-up ${r.entriesBefore}), ` +
        `${r.dropped} links dropped, ${r.reconnections} handshakes (reconnected after ${JSON.stringify(r.reconnectMs)} ms), ` +
        `${r.attackOpened} attack connections, ${r.logLines} log lines; ` +
        `refused (P1 … P4) ${JSON.stringify(refused)}; unauthenticated ${JSON.stringify(r.stats.map((s) => s.unauthenticated))}`,
    );
    expect(r.dropped).toBeGreaterThan(0);
    expect(r.reconnections).toBeGreaterThan(0);
    for (const e of r.entriesInWindow) expect(e).toBeGreaterThan(0);
    // Thousands of refusals, but the log stays short: per transport a burst, then about one line a second.
    expect(r.logLines).toBeLessThanOrEqual(r.stats.length * (10 + 8 + 5));
  });
});
