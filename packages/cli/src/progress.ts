/*
 * The progress bar on stderr (cli-progress): shown only on a terminal, and only once a run has
 * lasted more than a moment, so quick runs and pipes stay clean. Before the bar, a step line names
 * what is being done at once — building a large graph or coterie, creating the processes — since
 * such a step runs synchronously and no bar could be redrawn during it; the bar (or `stop()`)
 * wipes it, so a quick run leaves nothing behind.
 */
import cliProgress from 'cli-progress';

/** A progress reporter: `update(done, total)` as work completes, `stop()` at the end. */
export interface Progress {
  /** Shows `done` of `total` invocations completed. */
  update(done: number, total: number): void;
  /**
   * Names the step that starts now (`building the graph`, `creating 100000 processes`) on a
   * status line, at once: it shows for as long as the step lasts, even a synchronous one.
   */
  step(label: string): void;
  /** Stops the bar (and clears it and any step line) at the end of the work. */
  stop(): void;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  /** What is running, shown before the bar. */
  readonly label: string;
  /** What is counted (default `invocations`). */
  readonly unit?: string;
  /** False to never show a bar. */
  readonly enabled: boolean;
  /** The stream (default `process.stderr`); no bar unless it is a TTY. */
  readonly stream?: NodeJS.WriteStream;
  /** Show the bar only after this long, in ms (default 400). */
  readonly delayMs?: number;
}

const NOOP: Progress = { update() {}, step() {}, stop() {} };

/** Back to the line's start, and erase it (ANSI). */
const CLEAR_LINE = '\r\x1b[K';

/** A progress bar on stderr when enabled and stderr is a terminal; otherwise a no-op. */
export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  if (!options.enabled || !stream.isTTY) return NOOP;
  const started = performance.now();
  const delay = options.delayMs ?? 400;
  let bar: cliProgress.SingleBar | undefined;
  let stepShown = false;
  return {
    step(label) {
      if (bar !== undefined) return;
      stream.write(`${CLEAR_LINE}${options.label}: ${label} …`);
      stepShown = true;
    },
    update(done, total) {
      if (bar === undefined) {
        if (performance.now() - started < delay || done >= total) return;
        if (stepShown) stream.write(CLEAR_LINE);
        stepShown = false;
        bar = new cliProgress.SingleBar(
          {
            stream,
            format: `${options.label} [{bar}] {percentage}% | {value}/{total} ${options.unit ?? 'invocations'} | ETA {eta_formatted}`,
            hideCursor: true,
            clearOnComplete: true,
            etaBuffer: 200,
            fps: 10,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, done);
        return;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      bar?.stop();
      bar = undefined;
      if (stepShown) stream.write(CLEAR_LINE);
      stepShown = false;
    },
  };
}
