/*
 * The commands of the `critsec` program that run clusters — `simulate`, `cluster` — and `node`
 * and `certs`, each registered on the commander root by a function of its own (`bench` is in
 * bench-command.ts). They parse nothing themselves: the resolve* functions validate every value.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALGORITHMS as DESCRIPTORS, readSharedLog, resolveClusterRun } from '@critsec/cluster';
import { type Command, Option } from 'commander';
import { writeCertificates } from './certs-command.js';
import { runCluster } from './cluster.js';
import { EXIT } from './exit-codes.js';
import { runNodeCommand } from './node.js';
import { runServeCommand } from './serve.js';
import { addParameterFlags, clusterInput } from './options.js';
import type { Progress } from './progress.js';
import { resolveSimulation, runSimulation, type SimulationSettings } from './simulate.js';
import type { RunSummary } from './summary.js';
import { openTraceFile } from './trace-file.js';

/** Where the program writes. */
export interface CliIO {
  /** Where results go (summaries, `--json`). */
  readonly stdout: {
    /** Writes `text` as it is. */
    write(text: string): unknown;
    /** A terminal (colours, progress bar), or not. */
    readonly isTTY?: boolean;
  };
  /** Where progress, warnings and errors go. */
  readonly stderr: {
    /** Writes `text` as it is. */
    write(text: string): unknown;
    /** A terminal (colours, progress bar), or not. */
    readonly isTTY?: boolean;
  };
}

/** A command's options as commander gives them. */
export type CommandOptions = Record<string, string | boolean | undefined>;

/** What every command's action uses: the output, the exit code, summaries and progress bars. */
export interface CommandContext {
  readonly io: CliIO;
  /** Writes a line to stdout / stderr (a newline is added when missing). */
  out(text: string): void;
  err(text: string): void;
  setExit(code: number): void;
  /** Prints a run's summary (JSON or the table), a line on stderr when it failed, and sets the exit code. */
  summaryOut(s: RunSummary, json: boolean): void;
  /** A progress bar on stderr; off with `--no-progress`, and for `--json` when stderr is no TTY. */
  progress(label: string, o: CommandOptions, json: boolean): Progress;
}

const ALGORITHMS = `${DESCRIPTORS.map((d) => d.name).join(', ')}, or the path of a module exporting an algorithm descriptor`;

/** The `--report` option of simulate and bench. */
export const REPORT_FLAG = '--report <file>';
export const REPORT_HELP =
  'write a self-contained HTML report with plots (Observable Plot, static SVG) to this file';

/**
 * The report module, loaded only for `--report` (no cost otherwise), and a writer for the
 * file: checked writable before the run starts.
 * @throws ConfigurationError naming the file if it cannot be written.
 */
export async function openReport(
  o: CommandOptions,
): Promise<{ module: typeof import('./report.js'); write(html: string): void } | undefined> {
  if (typeof o.report !== 'string') return undefined;
  const path = o.report;
  const module = await import('./report.js');
  module.writeReportFile(path, '');
  return { module, write: (html) => module.writeReportFile(path, html) };
}

function clusterOptions(cmd: Command, defaults: { n: string; rounds: string }): Command {
  return addParameterFlags(
    cmd.option('--n <n>', `number of processes (default ${defaults.n}; local-cs: the graph's)`),
  )
    .option('--rounds <r>', 'rounds per process (one entry and one exit each)', defaults.rounds)
    .option('--seed <s>', 'seed of every random choice', '1')
    .option('--json', 'print the machine-readable summary on stdout (and nothing else)')
    .option('--no-progress', 'no progress bar on stderr');
}

/** `critsec simulate <algorithm>`: a run on the simulated network. */
export function simulateCommand(root: Command, ctx: CommandContext): void {
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
    .option(REPORT_FLAG, REPORT_HELP)
    .action(async (algorithm: string, o: CommandOptions) => {
      const json = o.json === true;
      // created first: building a large graph or coterie is a step of its own, named at once
      const progress = ctx.progress(`simulate ${algorithm}`, o, json);
      progress.step(`building ${buildingWhat(o)}`);
      let settings: SimulationSettings;
      let report: Awaited<ReturnType<typeof openReport>>;
      try {
        settings = resolveSimulation(await clusterInput(algorithm, o, '25'));
        report = await openReport(o);
      } catch (err) {
        progress.stop();
        throw err;
      }
      const recorder = report && new report.module.SimulationRecorder();
      const trace = typeof o.trace === 'string' ? openTraceFile(o.trace) : undefined;
      let summary: RunSummary;
      try {
        summary = await runSimulation(settings, {
          onStep: (label) => progress.step(label),
          onProgress: (done, total) => progress.update(done, total),
          ...(trace ? { trace: trace.line } : {}),
          ...(recorder ? { recorder } : {}),
        });
      } finally {
        progress.stop();
        trace?.close();
      }
      if (report && recorder) {
        report.write(await report.module.simulationReportHTML(summary, recorder.recording()));
      }
      ctx.summaryOut(summary, json);
    });
}

/** What resolving the options builds, for the progress step: the graph, the coterie, or the cluster. */
function buildingWhat(o: CommandOptions): string {
  if (typeof o.graph === 'string') return `the graph ${o.graph}`;
  const n = typeof o.n === 'string' ? ` (n = ${o.n})` : '';
  return typeof o.coterie === 'string' ? `the ${o.coterie} coterie${n}` : `the cluster${n}`;
}

/** `critsec cluster <algorithm>`: the same over TCP/TLS between OS processes. */
export function clusterCommand(root: Command, ctx: CommandContext): void {
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
    .option(REPORT_FLAG, `${REPORT_HELP} (read from the shared log; times in ms)`)
    .action(async (algorithm: string, o: CommandOptions) => {
      const json = o.json === true;
      const progress = ctx.progress(`cluster ${algorithm}`, o, json);
      progress.step(`building ${buildingWhat(o)}`);
      let settings: ReturnType<typeof resolveClusterRun>;
      let report: Awaited<ReturnType<typeof openReport>>;
      try {
        settings = resolveClusterRun(await clusterInput(algorithm, o, '5'));
        report = await openReport(o);
      } catch (err) {
        progress.stop();
        throw err;
      }
      progress.step(`starting ${settings.cluster.n} members`);
      // the report reads the shared log: keep it in a temporary directory of our own
      const temporary =
        report && settings.dir === undefined ? mkdtempSync(join(tmpdir(), 'critsec-report-')) : undefined;
      if (temporary !== undefined) settings = { ...settings, dir: temporary };
      let summary: RunSummary;
      try {
        try {
          summary = await runCluster(settings, {
            onProgress: (d, t) => progress.update(d, t),
            onMemberOutput: (id, line) => {
              if (!json || ctx.io.stderr.isTTY) ctx.err(`[P${id}] ${line}`);
            },
          });
        } finally {
          progress.stop();
        }
        if (report && settings.dir !== undefined) {
          const { records } = readSharedLog(join(settings.dir, 'shared.log'));
          const { spec, initial } = settings.cluster;
          const rec = report.module.clusterRecording(records, { spec, initial, rounds: settings.rounds });
          report.write(await report.module.simulationReportHTML(summary, rec));
        }
      } finally {
        if (temporary !== undefined) rmSync(temporary, { recursive: true, force: true });
      }
      ctx.summaryOut(summary, json);
    });
}

/** The options of `critsec certs` as commander gives them. */
interface CertsCommandOptions {
  readonly n: string;
  readonly out: string;
  readonly hosts?: string;
  readonly days: string;
  readonly config: string;
  readonly port: string;
  readonly force?: boolean;
}

/** The flags of `critsec node` as commander gives them. */
interface NodeCommandFlags {
  readonly config: string;
  readonly id: string;
  readonly json?: boolean;
  readonly recover?: boolean;
  readonly metrics?: string;
  readonly serve?: string;
  readonly tokenFile?: string;
  readonly shared?: string;
}

/** `critsec node` (one member of a real deployment) and `critsec certs` (its certificates). */
export function deploymentCommands(root: Command, ctx: CommandContext): void {
  root
    .command('node')
    .description(
      'Run one member of a real deployment (one per machine) from a cluster configuration file; see the @critsec/cli README for the format and a 3-machine example.',
    )
    .requiredOption('--config <file>', 'the cluster configuration (cluster.json)')
    .requiredOption('--id <id>', 'this member’s process id (0 … n−1)')
    .option('--json', 'print this member’s report as JSON')
    .option(
      '--recover',
      'restart this member from its store (a configuration with durability): its sessions resume, a call it had in flight is withdrawn',
    )
    .option(
      '--metrics <[host:]port>',
      'serve this member’s Prometheus metrics at http://host:port/metrics while it runs (host default 127.0.0.1; 0.0.0.0 for a scraper elsewhere; with --serve the service’s own /metrics has them)',
    )
    .option(
      '--serve <socket-path|host:port>',
      'serve named locks over HTTP/JSON (@critsec/service) instead of running the workload, until SIGTERM/SIGINT (graceful shutdown, exit 0)',
    )
    .option(
      '--token-file <file>',
      'with --serve: the bearer token (else $CRITSEC_SERVICE_TOKEN; required beyond loopback)',
    )
    .option(
      '--shared <names>',
      'with --serve: comma-separated lock names that may be requested shared (the same on every member)',
    )
    .action(async (o: NodeCommandFlags) => {
      if (o.serve !== undefined) {
        if (o.metrics !== undefined) {
          ctx.err(
            'critsec node: --metrics with --serve: the lock service serves /metrics itself; drop --metrics',
          );
          ctx.setExit(EXIT.usage);
          return;
        }
        const r = await runServeCommand(
          o.config,
          o.id,
          o.serve,
          { write: (line) => ctx.err(line) },
          {
            ...(o.tokenFile === undefined ? {} : { tokenFile: o.tokenFile }),
            ...(o.shared === undefined ? {} : { shared: o.shared }),
          },
        );
        ctx.out(o.json ? JSON.stringify(r, null, 2) : r.text);
        ctx.setExit(r.ok ? EXIT.ok : EXIT.failed);
        return;
      }
      const report = await runNodeCommand(
        o.config,
        o.id,
        { write: (line) => ctx.err(line) },
        { recover: o.recover === true, ...(o.metrics === undefined ? {} : { metrics: o.metrics }) },
      );
      ctx.out(o.json ? JSON.stringify(report, null, 2) : report.text);
      ctx.setExit(report.ok ? EXIT.ok : EXIT.failed);
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
      'comma-separated host names / IP addresses to put in every certificate (default 127.0.0.1,localhost); one per process also writes --config',
    )
    .option('--days <d>', 'validity in days', '365')
    .option(
      '--config <file>',
      'with one host per process: the matching cluster configuration to write',
      'cluster.json',
    )
    .option('--port <port>', 'the port every member listens on in that configuration', '7400')
    .option('--force', 'overwrite the certificates, keys and configuration of an existing cluster')
    .action(async (o: CertsCommandOptions) => {
      const written = await writeCertificates(o);
      ctx.out(`wrote ${written.files.length} files to ${o.out}: ${written.files.join(', ')}`);
      ctx.out(
        'path' in written.config
          ? `wrote ${written.config.path} (process i on the i-th host; edit algorithm, params and workload)`
          : `no cluster configuration: ${written.config.skipped}`,
      );
      ctx.setExit(EXIT.ok);
    });
}
