import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDevCertificates, processIdFromSubjectAltName, processUri } from '../src/setup.js';

describe('cluster certificates', () => {
  it('makes a CA and per-process certificates naming each process in a SAN URI', async () => {
    const certs = await createDevCertificates([0, 3, 7], { days: 30 });
    const ca = new X509Certificate(certs.ca);
    expect(ca.ca).toBe(true);
    expect(certs.processes.map((p) => p.id)).toEqual([0, 3, 7]);
    for (const p of certs.processes) {
      const cert = new X509Certificate(p.cert);
      expect(cert.verify(ca.publicKey)).toBe(true);
      expect(cert.checkIssued(ca)).toBe(true);
      expect(cert.ca).toBe(false);
      expect(cert.subjectAltName).toContain(`URI:${processUri(p.id)}`);
      expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
      expect(processIdFromSubjectAltName(cert.subjectAltName)).toBe(p.id);
      expect(cert.checkPrivateKey((await import('node:crypto')).createPrivateKey(p.key))).toBe(true);
      expect(Date.parse(cert.validTo) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    }
    // Two runs give two different CAs.
    const other = await createDevCertificates(1);
    expect(new X509Certificate(other.processes[0]!.cert).verify(ca.publicKey)).toBe(false);
  });

  it('issues more certificates from an existing CA', async () => {
    const first = await createDevCertificates(2);
    const more = await createDevCertificates([2], { ca: { cert: first.ca, key: first.caKey } });
    expect(more.ca).toBe(first.ca);
    const ca = new X509Certificate(first.ca);
    expect(new X509Certificate(more.processes[0]!.cert).verify(ca.publicKey)).toBe(true);
    expect(processIdFromSubjectAltName(new X509Certificate(more.processes[0]!.cert).subjectAltName)).toBe(2);
  });

  it('reads the process id from a SAN string, refusing none, several or malformed ones', () => {
    expect(processIdFromSubjectAltName('URI:critsec://process/12, DNS:localhost')).toBe(12);
    expect(processIdFromSubjectAltName(undefined)).toMatch(/no subject alternative name/);
    expect(processIdFromSubjectAltName('DNS:localhost')).toMatch(/names no process/);
    expect(processIdFromSubjectAltName('URI:critsec://process/1, URI:critsec://process/2')).toMatch(
      /names 2 processes/,
    );
    expect(processIdFromSubjectAltName('URI:critsec://process/01')).toMatch(/malformed/);
    expect(processIdFromSubjectAltName('URI:critsec://process/1x')).toMatch(/malformed/);
  });

  it('rejects bad arguments', async () => {
    await expect(createDevCertificates(0)).rejects.toThrow(/n must be a positive integer/);
    await expect(createDevCertificates([1, 1])).rejects.toThrow(/distinct non-negative integers/);
    await expect(createDevCertificates(1, { days: 0 })).rejects.toThrow(/days must be in/);
  });
});
