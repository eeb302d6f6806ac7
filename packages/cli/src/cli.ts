/*
 * The `critsec` program (DESIGN.md 5; issue #7): `simulate`, `bench`, `cluster`, `node`, `certs`.
 * Parsing by commander; every value is validated by the resolve* functions, and every invalid
 * input ends with exit code 2 and one line on stderr — never a stack trace.
 *
 * Exit codes: 0 success; 1 the run failed (a safety violation, a process that could not finish,
 * a cluster member that failed); 2 invalid input; 3 a paper bound was not met under the
 * sequential workload (the run itself was safe and live).
 */
import { readFileSync } from 'node:fs';
import { CritsecError } from '@critsec/core';
import { Command, CommanderError, Option } from 'commander';
import { ALGORITHM_NAMES, MX_NAMES } from './algorithms.js';
import { GLOBAL_ALGORITHMS } from './catalog.js';
import { benchJSON, formatBenchMarkdown, resolveBench, runBench } from './bench.js';
import { BENCH_FAMILIES, type FamilyBench, formatFamilyBench, runFamilyBench } from './bench-families.js';
import { clusterInput, parseChoice, parseInteger } from './options.js';
import { resolveClusterRun, runCluster } from './cluster.js';
import { COTERIE_NAMES } from './coterie-choice.js';
import { SYSTEM_NAMES, VARIANT_NAMES } from './family-group-mutex.js';
import { ARBITER_NAMES } from './family-h-out-of-k.js';
import { LOCAL_ALGORITHM_NAMES } from './family-local-cs.js';
import { writeCertificates } from './certs-command.js';
import { runNodeCommand } from './node.js';
import { createProgress } from './progress.js';
import { resolveSimulation, runSimulation } from './simulate.js';
import { boundsFailed, formatSummary, type RunSummary } from './summary.js';
import { openTraceFile } from './trace-file.js';

/** Where the program writes. */
export interface CliIO {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
}

/** Exit codes of `critsec`. */
export const EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2, boundNotMet: 3 });

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * The exit code of a run: 1 if it failed (a safety violation, a process that could not finish),
 * 3 if it was safe and live but a paper's bound checked under the sequential workload was not
 * met, 0 otherwise.
 */
export function exitCodeFor(s: RunSummary): number {
  if (!s.ok || s.safetyViolations > 0) return EXIT.failed;
  return boundsFailed(s) ? EXIT.boundNotMet : EXIT.ok;
}

function isInputError(err: unknown): boolean {
  return err instanceof CritsecError && (err.code === 'CONFIGURATION' || err.code === 'COTERIE');
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

const ALGORITHMS = ALGORITHM_NAMES.join(', ');

const COTERIES = COTERIE_NAMES.join(', ');

function clusterOptions(cmd: Command, defaults: { n: string; rounds: string }): Command {
  return cmd
    .option('--n <n>', `number of processes (default ${defaults.n}; local-cs: the graph's)`)
    .option('--l <l>', 'at least l processes InCS (gcs, mutin; local-cs: l_i; default 3, capped to fit n)')
    .option(
      '--k <k>',
      'at most k processes InCS (gcs, kmutex; local-cs: k_i; h-out-of-k: the units; default 10, capped to n)',
    )
    .option('--coterie <name>', `quorum system: ${COTERIES}`, 'grid')
    .option('--mx <name>', `MUTIN's mutual exclusion (mutin, kmutex, gcs): ${MX_NAMES.join(', ')}`, 'maekawa')
    .option(
      '--arbiter <name>',
      `h-out-of-k: the arbiter, ${ARBITER_NAMES.join(', ')} (default uniform; -k: a k-arbiter, same quorum for every h)`,
    )
    .option('--h <h>', 'h-out-of-k: units per entry, 1..k, or random (default: uniform in 1..k per entry)')
    .option('--m <m>', 'group-mutex: number of groups (default 2)')
    .option('--variant <v>', `group-mutex: ${VARIANT_NAMES.join(' (Maekawa_M) or ')} (Maekawa_S) (default M)`)
    .option(
      '--system <name>',
      `group-mutex: group quorum system, ${SYSTEM_NAMES.join(', ')} (default surficial)`,
    )
    .option('--algorithm <name>', `local-cs: ${LOCAL_ALGORITHM_NAMES.join(', ')} (default lmutin)`)
    .option(
      '--graph <graph>',
      'local-cs: ring:N, grid:RxC, star:L, complete:N, random:N:P[:SEED], abilene, or a JSON file (default ring:20)',
    )
    .option('--bounds <file>', 'local-cs: per-process bounds from a JSON file { "l": [...], "k": [...] }')
    .option('--leader <id>', 'local-cs (lkcs): the leader P_LDR (default: a valid one of highest degree)')
    .option('--rounds <r>', 'rounds per process (one entry and one exit each)', defaults.rounds)
    .option('--seed <s>', 'seed of every random choice', '1')
    .option(
      '--init <config>',
      'initial configuration: default (the first l InCS), none, all, first:M, or ids InCS like 0,3,7',
      'default',
    )
    .option('--json', 'print the machine-readable summary on stdout (and nothing else)')
    .option('--no-progress', 'no progress bar on stderr');
}

/**
 * Builds the commander program. `run` receives each command's work and returns its exit code.
 */
function program(io: CliIO, setExit: (code: number) => void): Command {
  const out = (text: string) => io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  const err = (text: string) => io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  const root = new Command('critsec')
    .description(
      'Quorum-based distributed critical sections: run them on the simulated network (simulate, bench) or on real processes over TCP/TLS (cluster, node).',
    )
    .version(version(), '-V, --version')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(`critsec: ${oneLine(s).replace(/^error: /, '')} (see --help)\n`),
    });

  const summaryOut = (s: RunSummary, json: boolean) => {
    if (json) out(JSON.stringify(s, null, 2));
    else out(formatSummary(s, { color: io.stdout.isTTY === true }));
    const code = exitCodeFor(s);
    if (code === EXIT.failed) {
      err(
        `critsec: ${s.violation !== null ? `safety violated at state change ${s.violation.step}` : (s.failure ?? 'run failed')} — seed ${s.seed}; replay with: ${s.replay}`,
      );
    } else if (code === EXIT.boundNotMet) {
      err("critsec: a paper's bound was not met under the sequential workload (see the table)");
    }
    setExit(code);
  };

  clusterOptions(
    root
      .command('simulate')
      .description(
        'Run a cluster on the deterministic simulated network with the safety monitor on, and print a summary beside the papers’ bounds.',
      )
      .argument('<algorithm>', ALGORITHMS),
    { n: '25', rounds: '20' },
  )
    .option(
      '--delay <model>',
      'message delay, time units: unit, constant:D, uniform:MIN:MAX, exponential:MEAN',
      'unit',
    )
    .addOption(
      new Option(
        '--workload <kind>',
        'concurrent: every process alternates entry/exit with seeded think and hold times; sequential: one invocation in flight in the whole cluster at a time (the papers’ uncontended setting)',
      ).default('concurrent'),
    )
    .option('--think <t>', 'mean think time OutCS before an entry, time units (concurrent)', '2')
    .option('--hold <t>', 'mean hold time InCS before an exit, time units (concurrent)', '1')
    .option('--trace <file>', 'write the JSON-lines trace (messages, timers, state changes) to this file')
    .action(async (algorithm: string, o: Record<string, string | boolean | undefined>) => {
      const settings = resolveSimulation(clusterInput(algorithm, o, '25'));
      const trace = typeof o.trace === 'string' ? openTraceFile(o.trace) : undefined;
      const json = o.json === true;
      const progress = createProgress({
        label: `simulate ${settings.cluster.algorithm}`,
        enabled: o.progress !== false && !(json && io.stderr.isTTY !== true),
        stream: io.stderr as NodeJS.WriteStream,
      });
      let summary: RunSummary;
      try {
        summary = await runSimulation(settings, {
          onProgress: (done, total) => progress.update(done, total),
          ...(trace ? { trace: trace.line } : {}),
        });
      } finally {
        progress.stop();
        trace?.close();
      }
      summaryOut(summary, json);
    });

  root
    .command('bench')
    .description(
      'Reproduce the papers’ tables. global (default): message complexity and waiting time of every global (l,k)-CS algorithm and coterie for n ∈ {16, 64, 256, 1024}, beside the papers’ bounds and the Ricart–Agrawala baseline; h-out-of-k, group-mutex, local-cs: the tables of those papers (markdown).',
    )
    .argument('[family]', `global, ${BENCH_FAMILIES.join(', ')}`, 'global')
    .option('--quick', 'only n ∈ {16, 64}')
    .option('--n <list>', 'comma-separated sizes (coteries that need another size use the nearest one)')
    .option('--algorithms <list>', `comma-separated subset of: ${GLOBAL_ALGORITHMS.join(', ')}`)
    .option('--coteries <list>', `comma-separated subset of: ${COTERIES}`)
    .option('--rounds <r>', 'exit+entry pairs per process', '1')
    .option('--seed <s>', 'seed', '1')
    .option('--json', 'print JSON instead of markdown')
    .option('--no-progress', 'no progress bar on stderr')
    .action(async (family: string, o: Record<string, string | boolean | undefined>) => {
      if (family !== 'global') {
        const which = parseChoice('bench family', family, BENCH_FAMILIES);
        const progress = createProgress({
          label: `bench ${which}`,
          enabled: o.progress !== false && !(o.json === true && io.stderr.isTTY !== true),
          stream: io.stderr as NodeJS.WriteStream,
        });
        let b: FamilyBench;
        try {
          b = await runFamilyBench(which, {
            ...(typeof o.n === 'string' ? { sizes: o.n.split(',').map((x) => parseInteger('n', x, 1)) } : {}),
            rounds: parseInteger('rounds', o.rounds as string, 1),
            seed: parseInteger('seed', o.seed as string, 0),
            onProgress: (d, t) => progress.update(d, t),
          });
        } finally {
          progress.stop();
        }
        out(o.json === true ? JSON.stringify(b, null, 2) : formatFamilyBench(b));
        if (!b.ok) err(`critsec bench ${which}: ${b.failures.length} run(s) failed or broke a bound`);
        setExit(b.ok ? EXIT.ok : EXIT.failed);
        return;
      }
      const settings = resolveBench({
        quick: o.quick === true,
        ...(typeof o.n === 'string' ? { n: o.n } : {}),
        ...(typeof o.algorithms === 'string' ? { algorithms: o.algorithms } : {}),
        ...(typeof o.coteries === 'string' ? { coteries: o.coteries } : {}),
        rounds: o.rounds as string,
        seed: o.seed as string,
      });
      const json = o.json === true;
      const progress = createProgress({
        label: 'bench',
        enabled: o.progress !== false && !(json && io.stderr.isTTY !== true),
        stream: io.stderr as NodeJS.WriteStream,
      });
      let result: Awaited<ReturnType<typeof runBench>>;
      try {
        result = await runBench(settings, { onProgress: (d, t) => progress.update(d, t) });
      } finally {
        progress.stop();
      }
      out(json ? JSON.stringify(benchJSON(result), null, 2) : formatBenchMarkdown(result));
      const failed = result.rows.filter((r) => !r.summary.ok);
      if (failed.length > 0) {
        err(
          `critsec bench: ${failed.length} run(s) failed: ${failed.map((r) => r.summary.replay).join('; ')}`,
        );
        setExit(EXIT.failed);
      } else setExit(result.ok ? EXIT.ok : EXIT.boundNotMet);
    });

  clusterOptions(
    root
      .command('cluster')
      .description(
        'Run the same workload over real TCP/TLS between n separate OS processes on this machine, with the shared-log safety check; latencies in ms.',
      )
      .argument('<algorithm>', ALGORITHMS),
    { n: '5', rounds: '20' },
  )
    .option(
      '--workload <kind>',
      'concurrent, or sequential: one call in flight in the whole cluster (member 0 coordinates; exact message counts)',
      'concurrent',
    )
    .option('--think <ms>', 'mean think time OutCS before an entry, ms (concurrent)', '2')
    .option('--hold <ms>', 'mean hold time InCS before an exit, ms (concurrent)', '1')
    .option(
      '--certs <dir>',
      'use the certificates in this directory (from `critsec certs`) instead of fresh ones',
    )
    .option(
      '--dir <dir>',
      'write cluster.json, certificates and the shared log here (default: a temporary directory, removed afterwards)',
    )
    .option('--base-port <port>', 'listen on ports base … base+n−1 of 127.0.0.1 (default: free ports)')
    .option('--timeout <ms>', 'give up after this long', '300000')
    .action(async (algorithm: string, o: Record<string, string | boolean | undefined>) => {
      const settings = resolveClusterRun(clusterInput(algorithm, o, '5'));
      const json = o.json === true;
      const progress = createProgress({
        label: `cluster ${settings.cluster.algorithm}`,
        enabled: o.progress !== false && !(json && io.stderr.isTTY !== true),
        stream: io.stderr as NodeJS.WriteStream,
      });
      let summary: RunSummary;
      try {
        summary = await runCluster(settings, {
          onProgress: (d, t) => progress.update(d, t),
          onMemberOutput: (id, line) => {
            if (!json || io.stderr.isTTY) err(`[P${id}] ${line}`);
          },
        });
      } finally {
        progress.stop();
      }
      summaryOut(summary, json);
    });

  root
    .command('node')
    .description(
      'Run one member of a real deployment (one per machine) from a cluster configuration file; see the @critsec/cli README for the format and a 3-machine example.',
    )
    .requiredOption('--config <file>', 'the cluster configuration (cluster.json)')
    .requiredOption('--id <id>', 'this member’s process id (0 … n−1)')
    .option('--json', 'print this member’s report as JSON')
    .action(async (o: { config: string; id: string; json?: boolean }) => {
      const report = await runNodeCommand(o.config, o.id);
      out(o.json ? JSON.stringify(report, null, 2) : report.text);
      setExit(report.ok ? EXIT.ok : EXIT.failed);
    });

  root
    .command('certs')
    .description(
      'Make a cluster CA and one certificate per process (ECDSA P-256, the process id in a SAN URI) for a real deployment.',
    )
    .requiredOption('--n <n>', 'number of processes')
    .requiredOption(
      '--out <dir>',
      'directory to write ca.pem, ca.key.pem and p<id>.cert.pem / p<id>.key.pem into',
    )
    .option(
      '--hosts <list>',
      'comma-separated host names / IP addresses to put in every certificate',
      '127.0.0.1,localhost',
    )
    .option('--days <d>', 'validity in days', '365')
    .action(async (o: { n: string; out: string; hosts: string; days: string }) => {
      const written = await writeCertificates(o);
      out(`wrote ${written.length} files to ${o.out}: ${written.join(', ')}`);
      setExit(EXIT.ok);
    });

  return root;
}

/**
 * Runs `critsec` with `argv` (the arguments after the program name) and returns its exit code.
 * Never throws: invalid input → 2 with one line on stderr; an unexpected error → 1 with its
 * message (the stack only with `CRITSEC_DEBUG=1`).
 */
export async function main(
  argv: readonly string[],
  io: CliIO = { stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  let code: number = EXIT.ok;
  const prog = program(io, (c) => {
    code = c;
  });
  if (argv.length === 0) {
    io.stderr.write(prog.helpInformation());
    return EXIT.usage;
  }
  try {
    await prog.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (
        err.code === 'commander.helpDisplayed' ||
        err.code === 'commander.version' ||
        err.code === 'commander.help'
      ) {
        return EXIT.ok;
      }
      // commander already printed its one-line message through outputError
      return EXIT.usage;
    }
    if (isInputError(err)) {
      io.stderr.write(`critsec: ${oneLine((err as Error).message)}\n`);
      return EXIT.usage;
    }
    const e = err instanceof Error ? err : new Error(String(err));
    io.stderr.write(`critsec: ${oneLine(e.message)}\n`);
    if (process.env.CRITSEC_DEBUG === '1' && e.stack) io.stderr.write(`${e.stack}\n`);
    return EXIT.failed;
  }
}
