/**
 * The deployment recipes of `deploy/` (issue 30), tested as far as this machine allows:
 * - systemd: `systemd-analyze verify` of `critsec@.service` (when systemd-analyze is installed;
 *   the test says so when it is not), its sandbox's exposure score, the directives the README
 *   promises;
 * - Kubernetes: every object of `critsec.yaml` and of `config.mjs`'s output validated against its
 *   Kubernetes schema (`kubernetes-models`), and the cross-references between them: the Service
 *   the StatefulSet names, probe paths and ports, the PDB's selector and a quorum it keeps, the
 *   ConfigMap's cluster.json (members = replicas, hosts = the pods' DNS names, files = the
 *   Secret's keys and the mounts), the pod ordinal as `--id`.
 * The ExecStart's and the container's arguments through the CLI's parser, and both stop timeouts
 * against the graceful shutdown's bound, are checked by `packages/cli/test/deploy-recipes.test.ts`
 * (where the CLI is loaded anyway).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseClusterConfig } from '@critsec/cluster';
import { coterieByName, quorumAvoiding } from '@critsec/coteries';
import { createDevCertificates } from '@critsec/transport-tcp/setup';
import { StatefulSet } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const deploy = join(root, 'deploy');
const tmp = mkdtempSync(join(tmpdir(), 'critsec-deploy-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('deploy/systemd/critsec@.service', () => {
  const unitFile = join(deploy, 'systemd', 'critsec@.service');
  const unit = readFileSync(unitFile, 'utf8');
  /** The values of `key=` in the unit, in order. */
  const values = (key: string) =>
    unit
      .split('\n')
      .filter((l) => l.startsWith(`${key}=`))
      .map((l) => l.slice(key.length + 1));

  it('passes systemd-analyze verify, with a sandbox exposure of at most 2.0', () => {
    const which = spawnSync('systemd-analyze', ['--version']);
    if (which.error !== undefined || which.status !== 0) {
      console.log('systemd-analyze is not installed (apt-get install systemd): verify skipped');
      return;
    }
    // verify needs the ExecStart's program to exist: /bin/true stands in for /usr/local/bin/critsec
    const dir = mkdtempSync(join(tmp, 'unit-'));
    writeFileSync(join(dir, 'critsec@.service'), unit.replace('/usr/local/bin/critsec', '/bin/true'));
    const verify = spawnSync('systemd-analyze', ['verify', '--man=no', join(dir, 'critsec@0.service')], {
      encoding: 'utf8',
    });
    // an unknown key or a bad value is only a warning on stderr: none allowed
    expect({ status: verify.status, stderr: verify.stderr }).toEqual({ status: 0, stderr: '' });
    const security = execFileSync(
      'systemd-analyze',
      ['security', '--offline=yes', '--no-pager', join(dir, 'critsec@.service')],
      { encoding: 'utf8' },
    );
    const exposure = Number(/Overall exposure level for \S+: ([\d.]+)/.exec(security)?.[1]);
    expect(exposure).toBeLessThanOrEqual(2);
  });

  it('restarts on failure but not on 2 or 78, stops within the graceful shutdown, and is sandboxed', () => {
    expect(values('Restart')).toEqual(['on-failure']);
    expect(values('RestartPreventExitStatus')).toEqual(['2 78']);
    expect(values('StateDirectory')).toEqual(['critsec']);
    expect(values('KillSignal')).toEqual(['SIGTERM']);
    for (const [key, value] of [
      ['NoNewPrivileges', 'yes'],
      ['ProtectSystem', 'strict'],
      ['ProtectHome', 'yes'],
      ['PrivateTmp', 'yes'],
      ['CapabilityBoundingSet', ''],
      ['RestrictAddressFamilies', 'AF_UNIX AF_INET AF_INET6'],
      ['SystemCallFilter', '@system-service'],
      ['User', 'critsec'],
    ] as const)
      expect(values(key), key).toEqual([value]);
    // V8's JIT writes and then executes its code pages: the unit must not forbid it
    expect(values('MemoryDenyWriteExecute')).toEqual([]);
  });
});

type Obj = { apiVersion: string; kind: string; metadata: { name: string } } & Record<string, unknown>;
const MODELS: Record<string, new (o: never) => { validate(): void }> = {
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'apps/v1/StatefulSet': StatefulSet,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

/** Validates `o` against its Kubernetes schema. @throws the schema's error. */
function validate(o: Obj): void {
  const Model = MODELS[`${o.apiVersion}/${o.kind}`];
  expect(Model, `a model for ${o.apiVersion} ${o.kind}`).toBeDefined();
  new Model!(o as never).validate();
}

describe('deploy/kubernetes', () => {
  const manifests = parseAllDocuments(readFileSync(join(deploy, 'kubernetes', 'critsec.yaml'), 'utf8'))
    .map((d) => d.toJS() as Obj | null)
    .filter((o): o is Obj => o !== null);
  const one = <T>(kind: string) => {
    const found = manifests.filter((o) => o.kind === kind);
    expect(found, kind).toHaveLength(1);
    return found[0] as unknown as T;
  };
  const service = one<{ metadata: { name: string }; spec: K8sServiceSpec }>('Service');
  const sts = one<{ metadata: { name: string }; spec: K8sStatefulSetSpec }>('StatefulSet');
  const pdb = one<{ spec: { maxUnavailable: number; selector: { matchLabels: Record<string, string> } } }>(
    'PodDisruptionBudget',
  );
  const pod = sts.spec.template.spec;
  const container = pod.containers[0]!;
  const ns = 'locks-test';

  // the ConfigMap and the Secrets, by config.mjs from certificates of `critsec certs`
  const generated = (async () => {
    const certs = join(tmp, 'certs');
    const hosts = Array.from(
      { length: sts.spec.replicas },
      (_, i) => `critsec-${i}.critsec.${ns}.svc.cluster.local`,
    );
    const made = await createDevCertificates(sts.spec.replicas, { hosts });
    mkdirSync(certs);
    writeFileSync(join(certs, 'ca.pem'), made.ca);
    writeFileSync(join(certs, 'ca.key.pem'), made.caKey);
    for (const p of made.processes) {
      writeFileSync(join(certs, `p${p.id}.cert.pem`), p.cert);
      writeFileSync(join(certs, `p${p.id}.key.pem`), p.key);
    }
    const out = join(tmp, 'critsec-config.json');
    execFileSync(process.execPath, [
      join(deploy, 'kubernetes', 'config.mjs'),
      '--namespace',
      ns,
      '--certs',
      certs,
      '--out',
      out,
    ]);
    return (JSON.parse(readFileSync(out, 'utf8')) as { kind: string; items: Obj[] }).items;
  })();

  it('every object is valid against its Kubernetes schema (and a broken one is refused)', async () => {
    for (const o of [...manifests, ...(await generated)]) validate(o);
    expect(manifests.map((o) => o.kind)).toEqual(['Service', 'StatefulSet', 'PodDisruptionBudget']);
    const broken = structuredClone(manifests[1]!) as Obj & { spec: { replicas: unknown } };
    broken.spec.replicas = 'five';
    expect(() => validate(broken)).toThrow(/replicas/);
  });

  it('namespace-agnostic; the Service is headless, publishes unready pods, and is the StatefulSet’s', () => {
    for (const o of manifests) expect(o.metadata).not.toHaveProperty('namespace');
    expect(service.spec.clusterIP).toBe('None');
    expect(service.spec.publishNotReadyAddresses).toBe(true);
    expect(sts.spec.serviceName).toBe(service.metadata.name);
    expect(sts.spec.podManagementPolicy).toBe('Parallel');
    expect(service.spec.selector).toEqual(sts.spec.template.metadata.labels);
    expect(sts.spec.selector.matchLabels).toEqual(sts.spec.template.metadata.labels);
    for (const p of service.spec.ports)
      expect(container.ports.find((c) => c.name === p.targetPort)?.containerPort, p.name).toBe(p.port);
  });

  it('readiness from /readyz, liveness from /healthz, on the port the container serves', () => {
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    const http = container.ports.find((p) => p.name === container.readinessProbe.httpGet.port);
    expect(container.livenessProbe.httpGet.port).toBe(http?.name);
    expect(container.args[container.args.indexOf('--serve') + 1]).toBe(`0.0.0.0:${http?.containerPort}`);
  });

  it('the pod ordinal is --id (the label the StatefulSet controller sets, expanded by Kubernetes)', () => {
    const env = container.env.find((e) => e.name === 'CRITSEC_ID');
    expect(env?.valueFrom?.fieldRef?.fieldPath).toBe("metadata.labels['apps.kubernetes.io/pod-index']");
    expect(container.args[container.args.indexOf('--id') + 1]).toBe('$(CRITSEC_ID)');
  });

  it('the PDB selects the pods and keeps a quorum even if one more member fails during a disruption', async () => {
    expect(pdb.spec.selector.matchLabels).toEqual(sts.spec.template.metadata.labels);
    const cm = (await generated).find((o) => o.kind === 'ConfigMap') as unknown as {
      data: Record<string, string>;
    };
    const config = JSON.parse(cm.data['cluster.json']!) as { n: number; params: { coterie: 'majority' } };
    const coterie = coterieByName(config.params.coterie, config.n);
    const down = pdb.spec.maxUnavailable + 1;
    // every set of `down` members: some quorum of the coterie avoids it
    const subsets = (k: number, from = 0): number[][] =>
      k === 0
        ? [[]]
        : Array.from({ length: config.n - from }, (_, j) => from + j).flatMap((i) =>
            subsets(k - 1, i + 1).map((s) => [i, ...s]),
          );
    for (const s of subsets(down)) expect(quorumAvoiding(coterie, 0, new Set(s)), `down ${s}`).toBeDefined();
    // and the budget is not looser than it must be: one more down and some set leaves none
    expect(subsets(down + 1).some((s) => quorumAvoiding(coterie, 0, new Set(s)) === undefined)).toBe(true);
  });

  it('the ConfigMap’s cluster.json: replicas members at the pods’ DNS names, files in the mounts', async () => {
    const items = await generated;
    const byName = (name: string) =>
      items.find((o) => o.metadata.name === name) as unknown as {
        data: Record<string, string>;
      };
    const volume = (name: string) => pod.volumes.find((v) => v.name === name)!;
    const mount = (name: string) => container.volumeMounts.find((m) => m.name === name)!;
    const cm = byName(volume('config').configMap!.name);
    const config = parseClusterConfig(JSON.parse(cm.data['cluster.json']!));
    expect(mount('config').mountPath).toBe(dirname(container.args[container.args.indexOf('--config') + 1]!));
    expect(config.n).toBe(sts.spec.replicas);
    expect(config.algorithm).toBe('mutex');
    expect(config.durability).toBeUndefined(); // the service refuses it today
    const peer = container.ports.find((p) => p.name === 'peer')!.containerPort;
    expect(config.processes.map((p) => `${p.host}:${p.port}`)).toEqual(
      Array.from(
        { length: config.n },
        (_, i) => `${sts.metadata.name}-${i}.${service.metadata.name}.${ns}.svc.cluster.local:${peer}`,
      ),
    );
    const certs = byName(volume('certs').secret!.secretName);
    const files = [config.ca!, ...config.processes.flatMap((p) => [p.cert!, p.key!])];
    for (const f of files) {
      expect(dirname(f)).toBe(mount('certs').mountPath);
      expect(Buffer.from(certs.data[basename(f)]!, 'base64').toString()).toMatch(/^-----BEGIN /);
    }
    expect(Object.keys(certs.data).sort()).toEqual(files.map((f) => basename(f)).sort()); // not the CA's key
    expect(dirname(config.log)).toBe(mount('state').mountPath);
    expect(sts.spec.volumeClaimTemplates[0]?.metadata.name).toBe('state');
    const token = container.env.find((e) => e.name === 'CRITSEC_SERVICE_TOKEN')?.valueFrom?.secretKeyRef;
    expect(byName(token!.name).data[token!.key]).toBeTruthy();
    expect(existsSync(join(tmp, 'certs', 'ca.key.pem'))).toBe(true);
  });
});

interface K8sServiceSpec {
  clusterIP: string;
  publishNotReadyAddresses: boolean;
  selector: Record<string, string>;
  ports: { name: string; port: number; targetPort: string }[];
}

interface K8sProbe {
  httpGet: { path: string; port: string };
}

interface K8sContainer {
  args: string[];
  env: {
    name: string;
    valueFrom?: { fieldRef?: { fieldPath: string }; secretKeyRef?: { name: string; key: string } };
  }[];
  ports: { name: string; containerPort: number }[];
  readinessProbe: K8sProbe;
  livenessProbe: K8sProbe;
  volumeMounts: { name: string; mountPath: string }[];
}

interface K8sStatefulSetSpec {
  serviceName: string;
  replicas: number;
  podManagementPolicy: string;
  selector: { matchLabels: Record<string, string> };
  template: {
    metadata: { labels: Record<string, string> };
    spec: {
      containers: K8sContainer[];
      volumes: { name: string; configMap?: { name: string }; secret?: { secretName: string } }[];
    };
  };
  volumeClaimTemplates: { metadata: { name: string } }[];
}
