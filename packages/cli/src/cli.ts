/*
 * The `critsec` program (DESIGN.md 5; issue #7): `simulate`, `bench`, `cluster`, `chaos`, `node`, `certs`.
 * Parsing by commander; every value is validated by the resolve* functions, and every invalid
 * input ends with exit code 2 and one line on stderr — never a stack trace. The commands are
 * registered by commands.ts, bench-command.ts and chaos.ts.
 *
 * Exit codes (`EXIT`): 0 success; 1 the run failed (a safety violation, a process that could
 * not finish, a cluster member that failed, a deadline of `critsec node` that expired); 2 invalid
 * command-line input; 3 a paper bound was not met under the sequential workload (the run itself
 * was safe and live); 78 (EX_CONFIG) `critsec node`'s configuration file, or a file it names,
 * cannot be used.
 */
import { readFileSync } from 'node:fs';
import { CritsecError } from '@critsec/core';
import { Command, CommanderError } from 'commander';
import { benchCommand } from './bench-command.js';
import { chaosCommand } from './chaos.js';
import {
  type CliIO,
  type CommandContext,
  clusterCommand,
  deploymentCommands,
  simulateCommand,
} from './commands.js';
import { DeploymentConfigError, EXIT, exitCodeFor } from './exit-codes.js';
import { createProgress } from './progress.js';
import { formatSummary, type RunSummary } from './summary.js';

export type { CliIO } from './commands.js';
export { EXIT, exitCodeFor } from './exit-codes.js';

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

function isInputError(err: unknown): boolean {
  return err instanceof CritsecError && (err.code === 'CONFIGURATION' || err.code === 'COTERIE');
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** The context the commands write through: `io`, and `setExit` for their exit code. */
function commandContext(io: CliIO, setExit: (code: number) => void): CommandContext {
  const out = (text: string) => void io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  const err = (text: string) => void io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
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
  const progress: CommandContext['progress'] = (label, o, json) =>
    createProgress({
      label,
      enabled: o.progress !== false && !(json && io.stderr.isTTY !== true),
      stream: io.stderr as NodeJS.WriteStream,
    });
  return { io, out, err, setExit, summaryOut, progress };
}

/**
 * Builds the commander program. Each command's action reports its exit code through `setExit`.
 */
function program(io: CliIO, setExit: (code: number) => void): Command {
  const root = new Command('critsec')
    .description(
      'Quorum-based distributed critical sections: run them on the simulated network (simulate, bench) or on real processes over TCP/TLS (cluster, chaos, node).',
    )
    .version(version(), '-V, --version')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(`critsec: ${oneLine(s).replace(/^error: /, '')} (see --help)\n`),
    });
  root.addHelpText(
    'after',
    `
Exit codes: ${EXIT.ok} success; ${EXIT.failed} the run failed (a safety violation, a member that could not finish, a deadline of \`critsec node\` that expired);
${EXIT.usage} invalid command-line input; ${EXIT.boundNotMet} a paper's bound not met under the sequential workload;
${EXIT.config} (EX_CONFIG) the configuration file of \`critsec node\`, or a file it names (certificates, keys), cannot be used.`,
  );
  const ctx = commandContext(io, setExit);
  simulateCommand(root, ctx);
  benchCommand(root, ctx);
  clusterCommand(root, ctx);
  chaosCommand(root, ctx);
  deploymentCommands(root, ctx);
  return root;
}

/**
 * Runs `critsec` with `argv` (the arguments after the program name) and returns its exit code.
 * Never throws: invalid input → 2 (a deployment's configuration file → 78) with one line on
 * stderr; any other error → 1 with its message (the stack only with `CRITSEC_DEBUG=1`).
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
      return err instanceof DeploymentConfigError ? EXIT.config : EXIT.usage;
    }
    const e = err instanceof Error ? err : new Error(String(err));
    io.stderr.write(`critsec: ${oneLine(e.message)}\n`);
    if (process.env.CRITSEC_DEBUG === '1' && e.stack) io.stderr.write(`${e.stack}\n`);
    return EXIT.failed;
  }
}
