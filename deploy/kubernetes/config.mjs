#!/usr/bin/env node
// The members' configuration and certificates for critsec.yaml in namespace <ns>, as Kubernetes
// objects: the ConfigMap `critsec-config` (cluster.json: process i at
// critsec-<i>.critsec.<ns>.svc.cluster.local:7400, Maekawa over the majority coterie with fencing
// tokens and quorum reselection, paths where the pods mount them) and the Secrets `critsec-certs` (the CA certificate, every
// member's certificate and key — not the CA's key) and `critsec-token` (the service's bearer token).
//
//   node deploy/kubernetes/config.mjs --namespace <ns> [--replicas 5] [--certs critsec-certs] [--out critsec-config.json]
//   kubectl apply -n <ns> -f critsec-config.json -f deploy/kubernetes/critsec.yaml
//
// The certificates are made by `critsec certs` into --certs (the command: $CRITSEC, default
// `critsec` on the PATH), or read from there when it already holds them (ca.pem, p<i>.cert.pem,
// p<i>.key.pem: from `critsec certs` or your own CA, the process id in a SAN URI
// critsec://process/<i>, which is what the members check — not the host names).
// Keep that directory (its ca.key.pem signs the certificates of later members) off the cluster.
// Needs nothing but Node ≥ 20. Tested by packages/integration-tests/test/deploy-recipes.test.ts.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/** The name of the headless Service and of the StatefulSet in critsec.yaml. */
const NAME = 'critsec';
/** Where the pods mount the ConfigMap, the certificates and their state (critsec.yaml). */
const CONFIG_DIR = '/etc/critsec/config';
const CERTS_DIR = '/etc/critsec/certs';
const STATE_DIR = '/var/lib/critsec';
const PEER_PORT = 7400;

/** The host of process `i` in namespace `ns`: its pod's name under the headless Service. */
export function memberHost(ns, i) {
  return `${NAME}-${i}.${NAME}.${ns}.svc.cluster.local`;
}

/**
 * The cluster.json of `replicas` members in namespace `ns`: the lock service's algorithm and
 * parameters, process i at its pod's DNS name, the files at the paths the pods mount them.
 */
export function clusterConfig(ns, replicas) {
  const processes = Array.from({ length: replicas }, (_, id) => ({
    id,
    host: memberHost(ns, id),
    port: PEER_PORT,
    cert: `${CERTS_DIR}/p${id}.cert.pem`,
    key: `${CERTS_DIR}/p${id}.key.pem`,
  }));
  return {
    version: 1,
    n: replicas,
    ca: `${CERTS_DIR}/ca.pem`,
    processes,
    algorithm: 'mutex',
    params: { coterie: 'majority', fencing: true, reselect: true },
    workload: { rounds: 0 },
    log: `${STATE_DIR}/critsec.log`,
  };
}

/** The ConfigMap and the two Secrets, as a `v1` `List` (`kubectl apply -f` takes it). */
export function kubernetesObjects(ns, replicas, certsDir, token) {
  const config = clusterConfig(ns, replicas);
  const files = ['ca.pem', ...Array.from({ length: replicas }, (_, i) => [`p${i}.cert.pem`, `p${i}.key.pem`]).flat()];
  const b64 = (s) => Buffer.from(s).toString('base64');
  const labels = { 'app.kubernetes.io/name': NAME };
  return {
    apiVersion: 'v1',
    kind: 'List',
    items: [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `${NAME}-config`, labels },
        data: { 'cluster.json': `${JSON.stringify(config, null, 2)}\n` },
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `${NAME}-certs`, labels },
        type: 'Opaque',
        data: Object.fromEntries(files.map((f) => [f, b64(readFileSync(join(certsDir, f)))])),
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `${NAME}-token`, labels },
        type: 'Opaque',
        data: { token: b64(token) },
      },
    ],
  };
}

function main() {
  const { values } = parseArgs({
    options: {
      namespace: { type: 'string' },
      replicas: { type: 'string', default: '5' },
      certs: { type: 'string', default: 'critsec-certs' },
      out: { type: 'string', default: 'critsec-config.json' },
    },
  });
  const ns = values.namespace;
  const replicas = Number(values.replicas);
  if (ns === undefined || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(ns) || !(Number.isInteger(replicas) && replicas >= 1)) {
    process.stderr.write('usage: node config.mjs --namespace <ns> [--replicas 5] [--certs critsec-certs] [--out critsec-config.json]\n');
    process.exit(2);
  }
  if (!existsSync(join(values.certs, 'ca.pem'))) {
    const [cmd, ...pre] = (process.env.CRITSEC ?? 'critsec').split(' ');
    const hosts = Array.from({ length: replicas }, (_, i) => memberHost(ns, i)).join(',');
    execFileSync(
      cmd,
      [...pre, 'certs', '--n', String(replicas), '--out', values.certs, '--hosts', hosts, '--port', String(PEER_PORT), '--config', join(values.certs, 'cluster.json')],
      { stdio: 'inherit' },
    );
  }
  const list = kubernetesObjects(ns, replicas, values.certs, randomBytes(32).toString('base64url'));
  writeFileSync(values.out, `${JSON.stringify(list, null, 2)}\n`, { mode: 0o600 });
  process.stdout.write(`wrote ${values.out}: ConfigMap ${NAME}-config, Secrets ${NAME}-certs and ${NAME}-token for namespace ${ns}, ${replicas} members\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
