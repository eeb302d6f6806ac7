/**
 * Every bad option of `tcpTransport` is a `ConfigurationError` naming the value, thrown at
 * configuration time — never a raw `TypeError`, a crash at the first warning, or a failure
 * deferred to `start()`.
 */
import { ConfigurationError } from '@critsec/core';
import { describe, expect, it } from 'vitest';
import { tcpTransport } from '../src/index.js';

const peers = [0, 1].map((id) => ({ id, host: '127.0.0.1', port: 7000 + id }));
const base = { self: 0, peers, insecure: true, logger: null } as const;

function configurationError(options: unknown): Error {
  try {
    tcpTransport(options as never);
  } catch (err) {
    return err as Error;
  }
  throw new Error(`no error for ${JSON.stringify(options)}`);
}

describe('tcpTransport options: typed errors naming the value', () => {
  const cases: [string, unknown, RegExp][] = [
    ['no options at all', undefined, /options must be an object, got undefined/],
    [
      'a peer that is not an object',
      { ...base, peers: [peers[0], null] },
      /peers\[1\] must be \{ id, host, port \}, got null/,
    ],
    [
      'a logger without warn',
      { ...base, logger: {} },
      /logger must be null or have a warn\(message\) function, got \{\}/,
    ],
    [
      'a reconnect schedule that is not an object',
      { ...base, reconnect: null },
      /reconnect must be an object, got null/,
    ],
    [
      'a string heartbeat interval',
      { ...base, heartbeatIntervalMs: '100' },
      /heartbeatIntervalMs < heartbeatTimeoutMs.*"100"/,
    ],
    [
      'a string handshake timeout',
      { ...base, handshakeTimeoutMs: '100' },
      /handshakeTimeoutMs must be > 0, got "100"/,
    ],
    ['maxUnacked 0', { ...base, maxUnacked: 0 }, /maxUnacked must be an integer ≥ 1, got 0/],
    ['maxOutOfOrder 1.5', { ...base, maxOutOfOrder: 1.5 }, /maxOutOfOrder must be an integer ≥ 1, got 1.5/],
    [
      'a listen host that is not a string',
      { ...base, listenHost: 42 },
      /listenHost must be a non-empty string, got 42/,
    ],
    [
      'an onUndeliverable that is not a function',
      { ...base, onUndeliverable: 'x' },
      /onUndeliverable must be a function, got "x"/,
    ],
  ];
  for (const [what, options, message] of cases) {
    it(what, () => {
      const err = configurationError(options);
      expect(err).toBeInstanceOf(ConfigurationError);
      expect(err.message).toMatch(message);
    });
  }

  it('TLS credentials that are not PEM are refused when configured, not at start()', () => {
    const err = configurationError({
      self: 0,
      peers,
      logger: null,
      tls: { ca: 'not a certificate', cert: 'nor this', key: 'nor a key' },
    });
    expect(err).toBeInstanceOf(ConfigurationError);
    expect(err.message).toMatch(/tls \{ ca, cert, key \} are not usable/);
  });
});
