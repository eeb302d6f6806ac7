/**
 * The member program of the "1,000 names" scenario (forked by `src/names-cluster.ts` as
 * `node --expose-gc --import tsx bench/names-member.ts --config cluster.json --id 3 --ready-ms
 * 60000`): a
 * `@critsec/locks` manager over mutual TLS (`startNamesMember`), driven over IPC — it says
 * `{ type: 'ready' }` once connected to every peer, then answers each command; after answering
 * `close` it exits.
 */
import { parseArgs } from 'node:util';
import { type NamesCommand, type NamesReply, startNamesMember } from '../src/names-member.js';

const { values } = parseArgs({
  options: { config: { type: 'string' }, id: { type: 'string' }, 'ready-ms': { type: 'string' } },
});

function send(message: NamesReply | { type: 'ready' }): Promise<void> {
  return new Promise((resolve) => {
    if (typeof process.send !== 'function' || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

try {
  const member = await startNamesMember(values.config ?? 'cluster.json', Number(values.id), {
    readyTimeoutMs: Number(values['ready-ms'] ?? 60_000),
  });
  process.on('message', (command: NamesCommand) => {
    member.handle(command).then(
      async (result) => {
        await send({ type: 'reply', seq: command.seq, result });
        if (command.cmd === 'close') process.exit(0);
      },
      (err: unknown) =>
        send({
          type: 'error',
          seq: command.seq,
          message: err instanceof Error ? (err.stack ?? err.message) : String(err),
        }),
    );
  });
  await send({ type: 'ready' });
} catch (err) {
  process.stderr.write(
    `names member failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
}
