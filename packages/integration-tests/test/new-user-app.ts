/**
 * Issue 26 §4: runs the new-user app (`fixtures/new-user-app.ts`) as three OS processes over
 * mutual TLS on loopback — P0 does fewer increments and closes first — and reports whether the
 * run completed: every process printed `closed` and exited 0, and the shared counter holds every
 * increment. Once every process is connected, a run is declared deadlocked when no process printed
 * anything for `stallMs` (30 s; a run prints every few ms): the bound is progress, not a deadline
 * on the whole run (on the shared 2-core machine under load a run takes 5–30 s).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createRng } from '@critsec/core';
import {
  type ClusterCertificates,
  createDevCertificates,
  freeLoopbackPorts,
} from '@critsec/transport-tcp/setup';

const app = fileURLToPath(new URL('./fixtures/new-user-app.ts', import.meta.url));

/** Increments of P0, P1, P2: P0 finishes (and closes) long before the others. */
export const INCREMENTS = [50, 200, 200] as const;

/** What one run of the app did. */
export interface AppRun {
  /** Every process printed `closed` and exited 0, and the counter holds every increment. */
  readonly completed: boolean;
  /** The shared counter at the end. */
  readonly counter: number;
  /** Increments each process printed. */
  readonly increments: number[];
  /** Exit codes (null: killed after the stall). */
  readonly exits: (number | null)[];
  /** Set when the run stalled: what it waited for. */
  readonly stalled?: string;
  /** Each process's stderr. */
  readonly stderr: string[];
}

let certs: Promise<ClusterCertificates> | undefined;

/**
 * One run; `seed` draws each process's setup delay between `ready()` and building its lock, 0 …
 * `maxSetupDelayMs` ms (default 30).
 */
async function runNewUserApp(seed: number, maxSetupDelayMs = 30, stallMs = 30_000): Promise<AppRun> {
  certs ??= createDevCertificates(3);
  const c = await certs;
  const dir = mkdtempSync(join(tmpdir(), 'critsec-new-user-'));
  const children: ChildProcess[] = [];
  try {
    const ports = await freeLoopbackPorts(3);
    const counter = join(dir, 'counter');
    writeFileSync(counter, '0');
    const rng = createRng(seed);
    const setup = join(dir, 'setup.json');
    writeFileSync(
      setup,
      JSON.stringify({
        peers: ports.map((port, id) => ({ id, host: '127.0.0.1', port })),
        ca: c.ca,
        processes: c.processes.slice(0, 3).map((p) => ({ cert: p.cert, key: p.key })),
        counter,
        increments: INCREMENTS,
        setupDelayMs: [0, 1, 2].map(() => rng.int(maxSetupDelayMs + 1)),
      }),
    );
    const increments = [0, 0, 0];
    const stages = ['starting', 'starting', 'starting'];
    const closed = [false, false, false];
    const stderr = ['', '', ''];
    let lastProgress = Date.now();
    const exits = await new Promise<(number | null)[]>((resolve) => {
      const codes: (number | null | undefined)[] = [undefined, undefined, undefined];
      let stalled = false;
      const watch = setInterval(() => {
        // until every process is connected, its own ready() deadline (30 s) bounds the wait
        if (stages.includes('starting') || Date.now() - lastProgress < stallMs) return;
        stalled = true;
        for (const child of children) child.kill('SIGKILL');
      }, 500);
      for (const id of [0, 1, 2]) {
        const child = spawn(
          process.execPath,
          ['--conditions=@critsec/source', '--import', 'tsx', app, setup, String(id)],
          {
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        children.push(child);
        createInterface({ input: child.stdout! }).on('line', (line) => {
          lastProgress = Date.now();
          stages[id] = line.startsWith('inc ') ? 'incrementing' : line;
          if (line.startsWith('inc ')) increments[id] = Number(line.slice(4));
          if (line === 'closed') closed[id] = true;
        });
        child.stderr!.on('data', (d: Buffer) => {
          stderr[id] += d.toString();
        });
        child.on('exit', (code) => {
          codes[id] = stalled ? null : code;
          if (codes.every((x) => x !== undefined)) {
            clearInterval(watch);
            resolve(codes as (number | null)[]);
          }
        });
      }
    });
    const value = Number(readFileSync(counter, 'utf8'));
    const total = INCREMENTS.reduce((a, b) => a + b, 0);
    const completed = exits.every((e) => e === 0) && closed.every(Boolean) && value === total;
    const stalledAt = exits.some((e) => e === null)
      ? `no output for ${stallMs} ms at increments ${increments.join('/')} of ${INCREMENTS.join('/')}, counter ${value}, stages ${stages.join('/')}`
      : undefined;
    return {
      completed,
      counter: value,
      increments,
      exits,
      stderr,
      ...(stalledAt ? { stalled: stalledAt } : {}),
    };
  } finally {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `runs` runs, one after the other (seeds `1 … runs`, setup delays of 0 … `maxSetupDelayMs` ms);
 * prints one line per run and the tally.
 */
export async function runNewUserApps(runs: number, maxSetupDelayMs = 30): Promise<AppRun[]> {
  const results: AppRun[] = [];
  for (let seed = 1; seed <= runs; seed++) {
    const r = await runNewUserApp(seed, maxSetupDelayMs);
    console.log(
      `new-user app run ${seed}: ${r.completed ? 'completed' : 'FAILED'}, counter ${r.counter}, increments ${r.increments.join('/')}, exits ${r.exits.join('/')}${r.stalled ? `, ${r.stalled}` : ''}${r.completed ? '' : `\n${r.stderr.join('\n')}`}`,
    );
    results.push(r);
  }
  console.log(`new-user app: ${results.filter((r) => r.completed).length}/${runs} runs completed`);
  return results;
}
