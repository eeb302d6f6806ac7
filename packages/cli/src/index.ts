/**
 * `@critsec/cli` — the `critsec` command (DESIGN.md 5) and the functions behind it, for programs
 * that want the same runs, summaries and bounds:
 *
 * - {@link resolveSimulation} + {@link runSimulation}: a cluster on the deterministic simulated
 *   network with the safety monitor on, summarized as a {@link RunSummary} (the `--json` shape);
 * - {@link resolveBench} + {@link runBench}: every algorithm × coterie beside the papers' bounds;
 * - {@link @critsec/cluster!index.resolveClusterRun} + {@link runCluster}: the same over TCP/TLS between OS processes;
 *   {@link @critsec/cluster!index.runNode}: one member of a real deployment;
 * - the algorithms are the descriptors of {@link @critsec/cluster!index.ALGORITHMS} (each with its
 *   paper's bounds), or a module exporting your own descriptor: `critsec simulate ./mine.js`;
 * - {@link main}: the program itself (`main(['simulate', 'gcs', '--json'])` returns the exit code,
 *   one of {@link EXIT}).
 *
 * The algorithms (`resolveCluster` over descriptors), the settings of a run (`resolveRun`, one
 * type for the simulated and the real run), the member runtime (`runNode`), the local launcher
 * (`resolveClusterRun`, `runLocalCluster`) are `@critsec/cluster`'s: import them from there.
 *
 * @example
 * ```ts
 * import { resolveSimulation, runSimulation } from '@critsec/cli';
 *
 * const settings = resolveSimulation({ algorithm: 'gcs', n: 25, params: { l: 3, k: 10, coterie: 'grid' }, workload: 'sequential', rounds: 10 });
 * const summary = await runSimulation(settings);
 * console.log(summary.safetyViolations, summary.waitingTime.entry.max, summary.bounds.waitingTimeEntry); // 0 6 9
 * ```
 *
 * @packageDocumentation
 */
export {
  type BenchCase,
  type BenchHooks,
  type BenchInput,
  type BenchResult,
  type BenchRow,
  type BenchSettings,
  benchJSON,
  formatBenchMarkdown,
  resolveBench,
  runBench,
} from './bench.js';
export {
  type BenchFamily,
  type FamilyBench,
  type FamilyBenchInput,
  formatFamilyBench,
  runFamilyBench,
} from './bench-families.js';
export { type CertificatesInput, type CertificatesWritten, writeCertificates } from './certs-command.js';
export { type CliIO, EXIT, main } from './cli.js';
export { clusterReplayCommand, runCluster } from './cluster.js';
export type { CallRecord, SimulationRecorder, SimulationRecording, StateChange } from './report-recording.js';
export {
  replayCommand,
  resolveSimulation,
  type SimulateInput,
  type SimulationHooks,
  type SimulationSettings,
  runSimulation,
} from './simulate.js';
export { formatSummary, type MeanMax, type RunPerformance, type RunSummary, type Spread } from './summary.js';
