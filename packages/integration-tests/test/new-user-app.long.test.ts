/**
 * Issue 26 §4, "what it must show": the new-user app (three OS processes, mutual TLS, a Maekawa
 * lock built after `ready()` around a shared counter, P0 closing first with fewer increments)
 * completes in 20 of 20 runs. Each run is bounded by progress (30 s without output once every
 * process is connected is a deadlock), not by a deadline on the whole run.
 */
import { describe, expect, it } from 'vitest';
import { runNewUserApps } from './new-user-app.js';

describe('the new-user app of issue 26, 20 runs', () => {
  it('completes in 20 of 20 runs', async () => {
    const runs = await runNewUserApps(20);
    const failed = runs.flatMap((r, i) =>
      r.completed ? [] : [`run ${i + 1}: ${r.stalled ?? r.exits.join('/')}\n${r.stderr.join('\n')}`],
    );
    expect(failed).toEqual([]);
  });
});
