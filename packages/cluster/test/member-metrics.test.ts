/*
 * `critsec node --metrics` (issue 29): the member runtime serves its prom-client registry over
 * HTTP while it runs; scraped here from a running member (two members in this process).
 */
import { describe, expect, it } from 'vitest';
import { type ClusterWorkload, createLocalCluster, runClusterNode } from '../src/index.js';
import { createFactory } from '../src/launcher-chaos-member.js';
import { tempDirs } from './helpers.js';

const tempDir = tempDirs('critsec-metrics-');

describe('a member serves its metrics (critsec node --metrics)', () => {
  it('scraped over HTTP while it runs: process metrics, Maekawa messages by type, calls, InCS, peers up; 404 elsewhere; closed after the run', async () => {
    const rounds = 3;
    const loaded = await createLocalCluster({
      dir: tempDir(),
      n: 2,
      algorithm: 'chaos-mutex',
      params: { algorithm: 'mutex' },
      workload: { rounds },
      insecure: true,
    });
    let url = '';
    let scraped = '';
    let notFound = 0;
    const workload: ClusterWorkload = async (ctx) => {
      for (let r = 1; r <= rounds; r++) {
        await ctx.entry(r);
        await ctx.exit(r);
      }
      if (ctx.id === 0) {
        const res = await fetch(url);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
        scraped = await res.text();
        notFound = (await fetch(url.replace('/metrics', '/'))).status;
      }
      await ctx.finish();
      return rounds;
    };
    await Promise.all(
      [0, 1].map((id) =>
        runClusterNode({
          configPath: loaded.path,
          id,
          algorithms: { 'chaos-mutex': { createFactory } },
          workload,
          logger: null,
          ...(id === 0
            ? {
                metrics: {
                  port: 0,
                  onListening: (u) => {
                    url = u;
                  },
                },
              }
            : {}),
        }),
      ),
    );
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const lines = scraped.split('\n');
    // the process's own (collectDefaultMetrics)
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(
        lines.some((l) => l.startsWith(name)),
        name,
      ).toBe(true);
    // the member's: Maekawa's messages by type on channel cs, its calls, InCS, its one peer up
    for (const type of ['REQUEST', 'LOCKED', 'RELEASE'])
      expect(
        lines.some((l) =>
          l.startsWith(`critsec_messages_sent_total{member="0",channel="cs",type="${type}"}`),
        ),
        type,
      ).toBe(true);
    expect(
      lines.some((l) =>
        l.startsWith('critsec_messages_received_total{member="0",channel="cs",type="LOCKED"}'),
      ),
    ).toBe(true);
    expect(lines).toContain(`critsec_cs_calls_total{member="0",call="entry"} ${rounds}`);
    expect(lines).toContain(`critsec_cs_calls_total{member="0",call="exit"} ${rounds}`);
    expect(lines).toContain('critsec_in_cs{member="0"} 0');
    expect(lines).toContain('critsec_peers_up{member="0"} 1');
    expect(lines).toContain('critsec_peer_up{member="0",peer="1"} 1');
    expect(notFound).toBe(404);
    // the server is closed with the member
    await expect(fetch(url)).rejects.toThrow();
  });
});
