/**
 * Certificates for mutual TLS between the processes of one cluster: a cluster CA and one
 * certificate per process whose identity is bound in a SAN URI `critsec://process/<id>`.
 * Built with `@peculiar/x509` over Node's WebCrypto (ECDSA P-256, SHA-256) — no hand-rolled
 * ASN.1. The library is loaded lazily, only when certificates are made.
 */
import { webcrypto } from 'node:crypto';
import { ConfigurationError, type ProcessId } from '@critsec/core';

/** The SAN URI prefix that names a process: `critsec://process/3` is P3. */
export const PROCESS_URI_PREFIX = 'critsec://process/';

/** The URI naming process `id` in its certificate. */
export function processUri(id: ProcessId): string {
  return `${PROCESS_URI_PREFIX}${id}`;
}

/** PEM credentials of one process. */
export interface ProcessCredentials {
  /** The process's id (its certificate's URI names it). */
  readonly id: ProcessId;
  /** The process certificate (PEM), signed by the cluster CA. */
  readonly cert: string;
  /** Its private key (PKCS#8 PEM). Keep it secret: write it with mode 0600. */
  readonly key: string;
}

/** A cluster CA and the credentials of each process. */
export interface ClusterCertificates {
  /** The CA certificate (PEM) every process trusts. */
  readonly ca: string;
  /** The CA private key (PKCS#8 PEM), to issue more certificates later; keep it offline. */
  readonly caKey: string;
  /** One entry per process id, in the order given. */
  readonly processes: readonly ProcessCredentials[];
}

/** Options of {@link createDevCertificates}. */
export interface DevCertificateOptions {
  /** Validity in days from now (default 365). */
  readonly days?: number;
  /** Host names and IP addresses to put in every certificate's SAN besides the process URI (default `['127.0.0.1', 'localhost']`). */
  readonly hosts?: readonly string[];
  /** Common name of the CA (default `'critsec cluster CA'`). */
  readonly caName?: string;
  /**
   * Override the process URI written into certificate `id` (tests use it to mint a certificate
   * whose identity does not match the id it is handed to). Default {@link processUri}.
   */
  readonly uriFor?: (id: ProcessId) => string;
  /**
   * Issue from an existing CA (PEM certificate and PKCS#8 key, e.g. a previous result's `ca`
   * and `caKey`) instead of making a new one — to add processes to a running cluster.
   */
  readonly ca?: {
    /** The CA certificate (PEM). */
    readonly cert: string;
    /** The CA's private key (PKCS#8 PEM). */
    readonly key: string;
  };
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

type X509 = typeof import('@peculiar/x509');
let x509Promise: Promise<X509> | undefined;

async function loadX509(): Promise<X509> {
  x509Promise ??= (async () => {
    // @peculiar/x509 uses tsyringe, which needs the Reflect metadata polyfill.
    await import('reflect-metadata');
    const x509 = await import('@peculiar/x509');
    x509.cryptoProvider.set(webcrypto as never); // Node's WebCrypto; the lib types it as the DOM Crypto
    return x509;
  })();
  return x509Promise;
}

function serial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x01; // positive, non-zero
  return Buffer.from(bytes).toString('hex');
}

/** ECDSA P-256 with SHA-256: the key and signature algorithm of every certificate. */
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

type Certificate = InstanceType<X509['X509Certificate']>;

/** The validity window of the certificates made together: from 5 minutes ago, for `days` days. */
interface Validity {
  readonly notBefore: Date;
  readonly notAfter: Date;
}

/**
 * The ids to certify: `0 … n-1` for a number.
 * @throws ConfigurationError for a bad `n` or duplicate or negative ids.
 */
function certificateIds(ids: number | readonly ProcessId[]): ProcessId[] {
  const list = typeof ids === 'number' ? Array.from({ length: ids }, (_, i) => i) : [...ids];
  if (typeof ids === 'number' && !(Number.isSafeInteger(ids) && ids >= 1)) {
    throw new ConfigurationError(`createDevCertificates: n must be a positive integer, got ${String(ids)}`);
  }
  if (new Set(list).size !== list.length || list.some((i) => !Number.isSafeInteger(i) || i < 0)) {
    throw new ConfigurationError(
      `createDevCertificates: ids must be distinct non-negative integers, got ${JSON.stringify(list)}`,
    );
  }
  return list;
}

/** The CA of `options.ca`, or a new self-signed one, with its private key. */
async function clusterCa(
  x509: X509,
  options: DevCertificateOptions,
  validity: Validity,
): Promise<{ ca: Certificate; caPrivateKey: webcrypto.CryptoKey }> {
  const subtle = webcrypto.subtle;
  if (options.ca) {
    const ca = new x509.X509Certificate(options.ca.cert);
    const der = x509.PemConverter.decodeFirst(options.ca.key);
    return { ca, caPrivateKey: await subtle.importKey('pkcs8', der, ALG, true, ['sign']) };
  }
  const caKeys = (await subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${options.caName ?? 'critsec cluster CA'}`,
    ...validity,
    keys: caKeys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  return { ca, caPrivateKey: caKeys.privateKey };
}

/** A private key as PKCS#8 PEM. */
async function pem(x509: X509, key: webcrypto.CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

/** A new key and a certificate naming process `id` (SAN URI `uri` plus `hosts`), signed by the CA. */
async function processCredentials(
  x509: X509,
  issuer: { ca: Certificate; caPrivateKey: webcrypto.CryptoKey },
  id: ProcessId,
  san: { uri: string; hosts: readonly string[] },
  validity: Validity,
): Promise<ProcessCredentials> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=critsec process ${id}`,
    issuer: issuer.ca.subject,
    ...validity,
    signingKey: issuer.caPrivateKey,
    publicKey: keys.publicKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([
        x509.ExtendedKeyUsage.serverAuth,
        x509.ExtendedKeyUsage.clientAuth,
      ]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'url', value: san.uri },
        ...san.hosts.map((h) => ({
          type: IPV4.test(h) || h.includes(':') ? ('ip' as const) : ('dns' as const),
          value: h,
        })),
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(issuer.ca),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { id, cert: cert.toString('pem'), key: await pem(x509, keys.privateKey) };
}

/**
 * Makes a cluster CA and one certificate per process (ECDSA P-256), each naming its process in a
 * SAN URI `critsec://process/<id>` plus the given hosts; usable for both TLS server and client
 * authentication. For development and tests; production clusters can issue the same shape of
 * certificates from their own CA.
 *
 * @param ids - the process ids, or `n` for `0 … n-1`.
 * @throws ConfigurationError for a bad `n`, duplicate or negative ids, or bad `days`.
 */
export async function createDevCertificates(
  ids: number | readonly ProcessId[],
  options: DevCertificateOptions = {},
): Promise<ClusterCertificates> {
  const list = certificateIds(ids);
  const days = options.days ?? 365;
  if (!(days > 0 && days <= 3650)) {
    throw new ConfigurationError(`createDevCertificates: days must be in (0, 3650], got ${String(days)}`);
  }
  const hosts = options.hosts ?? ['127.0.0.1', 'localhost'];
  const uriFor = options.uriFor ?? processUri;
  const x509 = await loadX509();
  const validity: Validity = {
    notBefore: new Date(Date.now() - 5 * 60_000),
    notAfter: new Date(Date.now() + days * 86_400_000),
  };
  const issuer = await clusterCa(x509, options, validity);
  const processes: ProcessCredentials[] = [];
  for (const id of list) {
    processes.push(await processCredentials(x509, issuer, id, { uri: uriFor(id), hosts }, validity));
  }
  const caKey = options.ca ? options.ca.key : await pem(x509, issuer.caPrivateKey);
  return { ca: issuer.ca.toString('pem'), caKey, processes };
}

/**
 * The process id a peer certificate names, read from Node's `subjectaltname` string
 * (e.g. `'URI:critsec://process/3, IP Address:127.0.0.1'`). Exactly one process URI must be
 * present, naming an id in 0 … 2⁵³ − 1 in decimal without leading zeros; returns a reason string
 * otherwise.
 */
export function processIdFromSubjectAltName(subjectaltname: string | undefined): ProcessId | string {
  if (typeof subjectaltname !== 'string' || subjectaltname.length === 0) {
    return 'the certificate has no subject alternative name naming a critsec process';
  }
  const ids: ProcessId[] = [];
  for (const entry of subjectaltname.split(', ')) {
    if (!entry.startsWith(`URI:${PROCESS_URI_PREFIX}`)) continue;
    const rest = entry.slice(4 + PROCESS_URI_PREFIX.length);
    // Any process id the transport accepts (a safe integer), in canonical decimal.
    if (!/^(0|[1-9]\d{0,15})$/.test(rest) || !Number.isSafeInteger(Number(rest)))
      return `the certificate names a malformed process URI ${JSON.stringify(entry)}`;
    ids.push(Number(rest));
  }
  if (ids.length !== 1) {
    return ids.length === 0
      ? `the certificate names no process (expected a SAN URI ${PROCESS_URI_PREFIX}<id>)`
      : `the certificate names ${ids.length} processes (expected exactly one)`;
  }
  return ids[0]!;
}
