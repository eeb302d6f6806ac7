/*
 * The progress on stderr shows from the first moment of a long step, building included (issue
 * 26: `--graph random:100000:0.0001` and `--coterie tree --n 131071` built for minutes with
 * nothing on the terminal): a step line names what is being done at once, and is wiped after.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.js';
import { createProgress } from '../src/progress.js';

/** A terminal that records what is written to it. */
function terminal() {
  const writes: string[] = [];
  return { writes, stream: { isTTY: true, columns: 100, write: (s: string) => writes.push(s) > 0 } };
}

describe('createProgress: the step line', () => {
  it('names a step at once on a terminal (no delay), and stop() wipes it', () => {
    const t = terminal();
    const p = createProgress({
      label: 'simulate local-cs',
      enabled: true,
      stream: t.stream as unknown as NodeJS.WriteStream,
      delayMs: 60_000,
    });
    p.step('building the graph random:100000:0.0001');
    expect(t.writes).toEqual(['\r\x1b[Ksimulate local-cs: building the graph random:100000:0.0001 …']);
    p.stop();
    expect(t.writes.at(-1)).toBe('\r\x1b[K');
  });

  it('writes nothing off a terminal or with --no-progress', () => {
    for (const [isTTY, enabled] of [
      [false, true],
      [true, false],
    ] as const) {
      const writes: string[] = [];
      const stream = { isTTY, write: (s: string) => writes.push(s) > 0 } as unknown as NodeJS.WriteStream;
      const p = createProgress({ label: 'x', enabled, stream });
      p.step('building');
      p.stop();
      expect(writes).toEqual([]);
    }
  });
});

describe('critsec simulate on a terminal', () => {
  it('names each step as it starts: building, creating the processes, running', async () => {
    const t = terminal();
    let stdout = '';
    const code = await main(['simulate', 'local-cs', '--graph', 'ring:6', '--rounds', '1'], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: t.stream,
    });
    expect(code).toBe(0);
    expect(stdout).toContain('local-cs');
    const steps = t.writes.filter((w) => w.endsWith(' …'));
    expect(steps).toEqual([
      '\r\x1b[Ksimulate local-cs: building the graph ring:6 …',
      '\r\x1b[Ksimulate local-cs: creating 6 processes …',
      '\r\x1b[Ksimulate local-cs: running 1 rounds per process …',
    ]);
  });
});
