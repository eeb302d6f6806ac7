/*
 * Every member of a cluster listens on its own host:port: two members named at one address would
 * both try to listen there (the second fails with EADDRINUSE on that machine) and every peer
 * would dial the one that got it for both ids — a configuration that can never come up, refused
 * before any connection.
 */
import { ConfigurationError } from '@critsec/core';

/** The part of a member's entry this check reads. */
interface MemberAddress {
  readonly id: number;
  readonly host: string;
  readonly port: number;
}

/**
 * Refuses two members at the same host:port (host names compared case-insensitively, as DNS
 * does; distinct spellings of one machine, e.g. `localhost` and `127.0.0.1`, are not resolved).
 * @throws ConfigurationError naming the two process ids, the address and the way out.
 */
export function checkDistinctAddresses(processes: readonly MemberAddress[]): void {
  const seen = new Map<string, number>();
  for (const p of processes) {
    const address = `${p.host.trim().toLowerCase()}:${p.port}`;
    const other = seen.get(address);
    if (other !== undefined) {
      throw new ConfigurationError(
        `cluster config: processes ${other} and ${p.id} both listen on ${p.host}:${p.port}; give each member its own host:port (members on one machine need distinct ports)`,
      );
    }
    seen.set(address, p.id);
  }
}
