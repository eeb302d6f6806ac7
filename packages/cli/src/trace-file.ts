/*
 * `--trace FILE`: the simulator's JSON-lines trace written to a file, buffered (traces of big
 * runs have millions of lines) and flushed synchronously so that nothing is lost on exit.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { ConfigurationError } from '@critsec/core';

/** A JSON-lines file: `line(text)` appends one line; `close()` flushes. */
export interface TraceFile {
  /** Appends one line (`text` without its newline). */
  readonly line: (text: string) => void;
  /** Flushes and closes the file. */
  close(): void;
  /** Lines written. */
  readonly lines: number;
}

/**
 * Opens (truncates) `path` for a trace.
 * @throws ConfigurationError if the file cannot be opened for writing.
 */
export function openTraceFile(path: string, flushBytes = 1 << 20): TraceFile {
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (err) {
    throw new ConfigurationError(
      `--trace: cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  let buffer: string[] = [];
  let size = 0;
  let lines = 0;
  const flush = () => {
    if (buffer.length === 0) return;
    writeSync(fd, buffer.join(''));
    buffer = [];
    size = 0;
  };
  return {
    line(text: string) {
      buffer.push(text.endsWith('\n') ? text : `${text}\n`);
      size += text.length + 1;
      lines++;
      if (size >= flushBytes) flush();
    },
    close() {
      flush();
      closeSync(fd);
    },
    get lines() {
      return lines;
    },
  };
}
