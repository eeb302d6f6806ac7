/*
 * `critsec bench [family]`: the papers' tables — the global family's (every algorithm and
 * coterie beside the bounds, bench.ts) or those of h-out-of-k, group mutex and the local CS
 * (bench-families.ts).
 */
import { ConfigurationError } from '@critsec/core';
import { parseChoice, parseInteger } from '@critsec/core/kit';
import type { Command } from 'commander';
import { benchJSON, formatBenchMarkdown, GLOBAL_ALGORITHMS, resolveBench, runBench } from './bench.js';
import {
  BENCH_FAMILIES,
  type BenchFamily,
  type FamilyBench,
  formatFamilyBench,
  runFamilyBench,
} from './bench-families.js';
import {
  type CommandContext,
  type CommandOptions,
  openReport,
  REPORT_FLAG,
  REPORT_HELP,
} from './commands.js';
import { EXIT } from './exit-codes.js';
import { COTERIE_NAMES } from '@critsec/coteries';

const COTERIES = COTERIE_NAMES.join(', ');

/** `critsec bench <family>` for a family other than the global one. */
async function familyBench(which: BenchFamily, o: CommandOptions, ctx: CommandContext): Promise<void> {
  const progress = ctx.progress(`bench ${which}`, o, o.json === true);
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
  ctx.out(o.json === true ? JSON.stringify(b, null, 2) : formatFamilyBench(b));
  if (!b.ok) ctx.err(`critsec bench ${which}: ${b.failures.length} run(s) failed or broke a bound`);
  ctx.setExit(b.ok ? EXIT.ok : EXIT.failed);
}

/** `critsec bench` (the global family). */
async function globalBench(o: CommandOptions, ctx: CommandContext): Promise<void> {
  const settings = resolveBench({
    quick: o.quick === true,
    ...(typeof o.n === 'string' ? { n: o.n } : {}),
    ...(typeof o.algorithms === 'string' ? { algorithms: o.algorithms } : {}),
    ...(typeof o.coteries === 'string' ? { coteries: o.coteries } : {}),
    rounds: o.rounds as string,
    seed: o.seed as string,
  });
  const report = await openReport(o);
  const json = o.json === true;
  const progress = ctx.progress('bench', o, json);
  let result: Awaited<ReturnType<typeof runBench>>;
  try {
    result = await runBench(settings, { onProgress: (d, t) => progress.update(d, t) });
  } finally {
    progress.stop();
  }
  if (report) report.write(await report.module.benchReportHTML(result));
  ctx.out(json ? JSON.stringify(benchJSON(result), null, 2) : formatBenchMarkdown(result));
  const failed = result.rows.filter((r) => !r.summary.ok);
  if (failed.length > 0) {
    ctx.err(
      `critsec bench: ${failed.length} run(s) failed: ${failed.map((r) => r.summary.replay).join('; ')}`,
    );
    ctx.setExit(EXIT.failed);
  } else ctx.setExit(result.ok ? EXIT.ok : EXIT.boundNotMet);
}

/** Registers `critsec bench [family]`. */
export function benchCommand(root: Command, ctx: CommandContext): void {
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
    .option(REPORT_FLAG, `${REPORT_HELP} (global: the √n scaling plot)`)
    .action(async (family: string, o: CommandOptions) => {
      if (family !== 'global' && o.report !== undefined) {
        throw new ConfigurationError(`--report: only for the global bench, not ${family}`);
      }
      if (family !== 'global') await familyBench(parseChoice('bench family', family, BENCH_FAMILIES), o, ctx);
      else await globalBench(o, ctx);
    });
}
