/**
 * Synced commit latency of the embedded-store candidates (issue 27 §1): for each, a small
 * record (≈100 bytes of JSON) per synced transaction, then group commits of 10 and 100 records
 * per sync; p50/p99 of the wall time of one synced commit, in ms, on a fresh database in a
 * temporary directory of the working disk.
 *
 *   npm run bench -w @critsec/store                     # lmdb, as installed in the workspace
 *   npm run bench -w @critsec/store -- lmdb=DIR classic-level=DIR better-sqlite3=DIR
 *
 * A `name=DIR` argument loads the candidate from `DIR/node_modules` (a directory where it was
 * installed on its own, e.g. to time its install with an empty npm cache); `--commits N` sets the
 * number of single-record commits (default 400; group commits run N/4).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Writer = {
  commit(records: Array<[string, string]>): Promise<void> | void;
  close(): Promise<void> | void;
};
type Candidate = (load: (id: string) => unknown, dir: string) => Writer;

const candidates: Record<string, Candidate> = {
  // overlappingSync off: the commit promise resolves only once the transaction is synced
  lmdb: (load, dir) => {
    const { open } = load('lmdb') as typeof import('lmdb');
    const db = open({
      path: join(dir, 'db'),
      overlappingSync: false,
      encoding: 'string',
      compression: false,
    });
    return {
      commit: (records) =>
        db.transaction(() => {
          for (const [k, v] of records) db.put(k, v);
        }) as Promise<unknown> as Promise<void>,
      close: () => db.close(),
    };
  },
  // the default on Linux: commit resolves when visible; then wait for its flush to disk
  'lmdb-overlapping': (load, dir) => {
    const { open } = load('lmdb') as typeof import('lmdb');
    const db = open({ path: join(dir, 'db'), overlappingSync: true, encoding: 'string', compression: false });
    return {
      commit: async (records) => {
        await db.transaction(() => {
          for (const [k, v] of records) db.put(k, v);
        });
        await db.flushed;
      },
      close: () => db.close(),
    };
  },
  'classic-level': (load, dir) => {
    const { ClassicLevel } = load('classic-level') as { ClassicLevel: new (p: string) => LevelLike };
    const db = new ClassicLevel(join(dir, 'db'));
    return {
      commit: (records) =>
        db.batch(
          records.map(([key, value]) => ({ type: 'put', key, value })),
          { sync: true },
        ),
      close: () => db.close(),
    };
  },
  'better-sqlite3': (load, dir) => {
    const Database = load('better-sqlite3') as new (p: string) => SqliteLike;
    const db = new Database(join(dir, 'db.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE r (k TEXT PRIMARY KEY, v TEXT NOT NULL)');
    const put = db.prepare('INSERT OR REPLACE INTO r (k, v) VALUES (?, ?)');
    const tx = db.transaction((records: Array<[string, string]>) => {
      for (const [k, v] of records) put.run(k, v);
    });
    return { commit: (records) => void tx(records), close: () => void db.close() };
  },
};

interface LevelLike {
  batch(ops: Array<{ type: 'put'; key: string; value: string }>, o: { sync: boolean }): Promise<void>;
  close(): Promise<void>;
}
interface SqliteLike {
  pragma(s: string): unknown;
  exec(s: string): void;
  prepare(s: string): { run(...a: unknown[]): unknown };
  transaction<A>(f: (a: A) => void): (a: A) => void;
  close(): void;
}

const record = JSON.stringify({
  grant: 3,
  holder: 7,
  queue: [1, 4, 5],
  clock: 123_456,
  tag: 'p7-r42',
}).padEnd(100);

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

async function measure(w: Writer, commits: number, perCommit: number, seq: { n: number }) {
  const times: number[] = [];
  for (let c = 0; c < commits; c++) {
    const records: Array<[string, string]> = [];
    for (let r = 0; r < perCommit; r++) records.push([`rec-${(seq.n++ % 1000).toString()}`, record]);
    const t0 = process.hrtime.bigint();
    await w.commit(records);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

async function main() {
  const args = process.argv.slice(2);
  const commitsAt = args.indexOf('--commits');
  const commits = commitsAt >= 0 ? Number(args[commitsAt + 1]) : 400;
  const picks = args.filter((a, i) => a.includes('=') && !(commitsAt >= 0 && i === commitsAt + 1));
  const runs: Array<[string, string | undefined]> = picks.length
    ? picks.flatMap((a) => {
        const [name, dir] = a.split('=') as [string, string];
        return name === 'lmdb'
          ? ([
              [name, dir],
              ['lmdb-overlapping', dir],
            ] as Array<[string, string]>)
          : [[name, dir]];
      })
    : [
        ['lmdb', undefined],
        ['lmdb-overlapping', undefined],
      ];
  console.log(
    `ms per synced commit (p50 / p99); ${commits} commits of 1 record, ${commits / 4} of 10 and of 100`,
  );
  for (const [name, from] of runs) {
    const make = candidates[name];
    if (!make) throw new Error(`unknown candidate ${name}`);
    const load = createRequire(from ? join(from, 'node_modules', 'x.js') : import.meta.url);
    const dir = mkdtempSync(join(tmpdir(), `store-bench-${name}-`));
    try {
      const w = make(load, dir);
      const seq = { n: 0 };
      await measure(w, 20, 1, seq); // warm-up
      const one = await measure(w, commits, 1, seq);
      const ten = await measure(w, commits / 4, 10, seq);
      const hundred = await measure(w, commits / 4, 100, seq);
      await w.close();
      const f = (m: { p50: number; p99: number }) => `${m.p50.toFixed(2)} / ${m.p99.toFixed(2)}`;
      console.log(`${name.padEnd(17)} 1 rec: ${f(one)}   10 rec: ${f(ten)}   100 rec: ${f(hundred)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

await main();
