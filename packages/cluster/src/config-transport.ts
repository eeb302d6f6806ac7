/**
 * From a loaded cluster configuration to the TCP transport options of one member: its peers,
 * the configuration's `transport` keys, and its CA, certificate and key read from their files.
 */
import { readFileSync } from 'node:fs';
import { ConfigurationError, type ProcessId } from '@critsec/core';
import type { TcpTransportOptions } from '@critsec/transport-tcp';
import type { LoadedClusterConfig } from './config-cluster.js';

/**
 * The {@link TcpTransportOptions} of process `id` in a loaded configuration (reads its certificate files).
 * @throws ConfigurationError naming the configuration key and the file when a CA, certificate or
 *   key file cannot be read.
 */
export function transportOptionsFor(loaded: LoadedClusterConfig, id: ProcessId): TcpTransportOptions {
  const { config } = loaded;
  const me = config.processes.find((p) => p.id === id);
  if (me === undefined) {
    throw new ConfigurationError(`process ${id} is not in the cluster (ids 0 … ${config.n - 1})`);
  }
  const peers = config.processes.map(({ id, host, port }) => ({ id, host, port }));
  const t = config.transport ?? {};
  // the transport keys are TcpTransportOptions' own: copy those set (the transport validates them)
  const set = Object.fromEntries(Object.entries(t).filter(([, value]) => value !== undefined));
  // durable members resume a restored peer's sessions (issue 27)
  const durable = config.durability !== undefined && t.onPeerRestart === undefined;
  const base: TcpTransportOptions = {
    self: id,
    peers,
    ...set,
    ...(durable ? { onPeerRestart: 'resume' } : {}),
  };
  if (config.insecure === true) return { ...base, insecure: true };
  const index = config.processes.indexOf(me);
  const read = (key: string, p: string) => {
    const file = loaded.resolve(p);
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
      throw new ConfigurationError(`cluster config ${loaded.path}: ${key}: cannot read ${file} (${why})`, {
        cause: err,
      });
    }
  };
  return {
    ...base,
    tls: {
      ca: read('ca', config.ca!),
      cert: read(`processes[${index}].cert`, me.cert!),
      key: read(`processes[${index}].key`, me.key!),
    },
  };
}
