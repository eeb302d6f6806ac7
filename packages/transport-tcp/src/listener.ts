/**
 * The listener: a TLS 1.3 server that requires a client certificate from the cluster CA (plain
 * TCP in insecure mode), counts failed TLS handshakes as refusals, and hands every accepted
 * socket to the handshake (handshake.ts).
 */
import net from 'node:net';
import tls from 'node:tls';
import { TransportError } from '@critsec/core';
import { remoteOf } from './connection.js';
import type { TransportContext } from './context.js';
import type { RefusalReason } from './stats.js';

/** Classifies a TLS handshake failure for the refusal counters. */
export function classifyTlsError(err: Error & { code?: string }): RefusalReason {
  const text = `${err.code ?? ''} ${err.message}`;
  if (/timeout/i.test(text)) return 'handshake-timeout';
  if (/CERT|certificate|UNKNOWN_CA|unknown ca/i.test(text)) return 'certificate';
  return 'tls';
}

/**
 * Creates the (not yet listening) server of this process; `accept` gets each socket that passed
 * TLS (with a verified client certificate) or, in insecure mode, each TCP connection.
 */
export function createListener(ctx: TransportContext, accept: (socket: net.Socket) => void): net.Server {
  const o = ctx.options;
  const server = o.secure
    ? tls.createServer(
        {
          ca: o.tls!.ca,
          cert: o.tls!.cert,
          key: o.tls!.key,
          requestCert: true,
          rejectUnauthorized: true,
          minVersion: 'TLSv1.3',
          handshakeTimeout: o.handshakeTimeoutMs,
        },
        (socket) => accept(socket),
      )
    : net.createServer((socket) => accept(socket));
  server.maxConnections = 4 * ctx.peerIds.length + 64;
  if (o.secure) {
    server.on('tlsClientError', (err: Error, socket: tls.TLSSocket) => {
      // With rejectUnauthorized, Node destroys a client whose certificate fails verification
      // and records why in authorizationError; the error itself is then a bare reset.
      const authError = socket.authorizationError as unknown;
      const reason = authError ? 'certificate' : classifyTlsError(err);
      const why = authError ? `client certificate rejected (${String(authError)})` : err.message;
      ctx.refuse(undefined, reason, `TLS handshake from ${remoteOf(socket)} failed: ${why}`);
      socket.destroy();
    });
  }
  server.on('error', (err) => ctx.emitError(new TransportError(`P${ctx.self} listener: ${err.message}`)));
  return server;
}

/**
 * Binds `server` to this process's address (`listenHost`, default its own `host`, and its port).
 * @throws TransportError if the address cannot be bound.
 */
export function listen(ctx: TransportContext, server: net.Server): Promise<void> {
  const me = ctx.options.peers.find((p) => p.id === ctx.self)!;
  const host = ctx.options.listenHost ?? me.host;
  return new Promise<void>((resolve, reject) => {
    const onError = (err: Error) =>
      reject(
        new TransportError(`P${ctx.self} cannot listen on ${host}:${me.port}: ${err.message}`, {
          cause: err,
        }),
      );
    server.once('error', onError);
    server.listen(me.port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
