import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadClusterConfig, transportOptionsFor } from '@critsec/cluster';
import { ConfigurationError } from '@critsec/core';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCertificates } from '../src/index.js';

const tmp = mkdtempSync(join(tmpdir(), 'critsec-certs-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('critsec certs: the keys of an existing cluster are not overwritten by accident', () => {
  it('refuses a directory that holds any of the files, writes nothing, and overwrites with force', async () => {
    const out = join(tmp, 'c');
    await writeCertificates({ n: 2, out });
    const key = readFileSync(join(out, 'p1.key.pem'), 'utf8');
    // a larger cluster into the same directory still collides on ca.pem … p1.key.pem
    const again = writeCertificates({ n: 3, out });
    await expect(again).rejects.toBeInstanceOf(ConfigurationError);
    await expect(again).rejects.toThrow(
      /already holds 6 of the files \(ca\.pem, ca\.key\.pem, p0\.cert\.pem, p0\.key\.pem, …\); pass --force/,
    );
    expect(readFileSync(join(out, 'p1.key.pem'), 'utf8')).toBe(key);
    await writeCertificates({ n: 2, out, force: true });
    expect(readFileSync(join(out, 'p1.key.pem'), 'utf8')).not.toBe(key);
  });
});

describe('critsec certs --hosts with one host per process: the matching cluster.json', () => {
  it('writes a configuration that loads, with process i on the i-th host and paths relative to it', async () => {
    const out = join(tmp, 'deploy', 'certs');
    const config = join(tmp, 'deploy', 'cluster.json');
    const written = await writeCertificates({
      n: 3,
      out,
      hosts: '10.0.0.10,10.0.0.11,10.0.0.12',
      config,
      port: 7500,
    });
    expect(written.config).toEqual({ path: config });
    const loaded = loadClusterConfig(config);
    expect(loaded.config.processes).toEqual(
      [0, 1, 2].map((id) => ({
        id,
        host: `10.0.0.1${id}`,
        port: 7500,
        cert: `certs/p${id}.cert.pem`,
        key: `certs/p${id}.key.pem`,
      })),
    );
    expect(loaded.resolve(loaded.config.ca ?? '')).toBe(join(out, 'ca.pem'));
    // the certificates it names are the ones written: the transport options read them
    expect(transportOptionsFor(loaded, 2).tls?.key).toBe(readFileSync(join(out, 'p2.key.pem'), 'utf8'));
    // and a second run refuses to overwrite the configuration too
    await expect(
      writeCertificates({ n: 3, out: join(tmp, 'other'), hosts: 'a,b,c', config }),
    ).rejects.toThrow(/cluster\.json/);
  });

  it('writes no configuration when the hosts are not one per process', async () => {
    const config = join(tmp, 'none.json');
    const written = await writeCertificates({ n: 3, out: join(tmp, 'n3'), hosts: 'a,b', config });
    expect(written.config).toEqual({ skipped: expect.stringContaining('2 host(s) for 3 processes') });
    expect(existsSync(config)).toBe(false);
  });

  it('refuses a host named twice (every member would listen on one host:port) and writes nothing', async () => {
    const out = join(tmp, 'twice');
    const config = join(tmp, 'twice.json');
    const written = writeCertificates({ n: 3, out, hosts: '10.0.0.10,10.0.0.11,10.0.0.10', config });
    await expect(written).rejects.toBeInstanceOf(ConfigurationError);
    await expect(written).rejects.toThrow(
      /^--hosts: 10\.0\.0\.10 is named for processes 0 and 2, and every member listens on --port 7400, so both would be at 10\.0\.0\.10:7400; name one distinct host per process, or pass a host list that is not one per process/,
    );
    expect(existsSync(out)).toBe(false);
    expect(existsSync(config)).toBe(false);
  });
});
