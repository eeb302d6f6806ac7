import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as main from '../src/index.js';
import * as setup from '../src/setup.js';

/** The names an entry file re-exports (`export { … } from` and `export type { … } from`). */
function exportedNames(file: string): string[] {
  const text = readFileSync(new URL(`../src/${file}`, import.meta.url), 'utf8');
  const names: string[] = [];
  for (const m of text.matchAll(/export (?:type )?\{([^}]*)\} from/g)) {
    for (const item of m[1]!.split(',')) {
      const name = item.replace(/^\s*type\s+/, '').trim();
      if (name !== '') names.push(name);
    }
  }
  return names.sort();
}

describe('the public faces of @critsec/transport-tcp (README "API")', () => {
  it('the main entry is the factory and the types of its options, reports and durable side: 17 names, 1 value', () => {
    expect(exportedNames('index.ts')).toHaveLength(17);
    expect(Object.keys(main).sort()).toEqual(['tcpTransport']);
  });

  it('the /setup subpath holds the certificates and loopback ports: 8 names, 5 values', () => {
    expect(exportedNames('setup.ts')).toHaveLength(8);
    expect(Object.keys(setup).sort()).toEqual([
      'PROCESS_URI_PREFIX',
      'createDevCertificates',
      'freeLoopbackPorts',
      'processIdFromSubjectAltName',
      'processUri',
    ]);
  });
});
