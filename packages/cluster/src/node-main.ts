/*
 * The member process `critsec cluster` spawns (through this package's launcher,
 * which runs `node <this file> --config cluster.json --id 3`): runs {@link runNode}, relays
 * progress and the final report to the launcher over IPC, and exits 0 — or 1 with one line on
 * stderr (78, EX_CONFIG, for a configuration error, as `critsec node`).
 */
import { parseArgs } from 'node:util';
import { CritsecError, parseInteger } from '@critsec/core';
import { runNode } from './node.js';

function send(message: unknown): Promise<void> {
  return new Promise((resolve) => {
    if (typeof process.send !== 'function' || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function run(): Promise<void> {
  try {
    const { values } = parseArgs({
      options: { config: { type: 'string' }, id: { type: 'string' } },
      strict: true,
    });
    if (values.config === undefined) throw new Error('usage: node-main --config <cluster.json> --id <id>');
    const report = await runNode({
      configPath: values.config,
      id: parseInteger('id', values.id ?? '', 0),
      logger: { warn: (m) => process.stderr.write(`${m}\n`) },
      onProgress: (progress) => void send({ type: 'progress', progress }),
    });
    await send({ type: 'report', report });
    process.exitCode = 0;
    if (process.connected) process.disconnect();
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    process.stderr.write(`critsec node: ${e.message.replace(/\s*\n\s*/g, ' ')}\n`);
    process.exit(err instanceof CritsecError && err.code === 'CONFIGURATION' ? 78 : 1);
  }
}

void run();
