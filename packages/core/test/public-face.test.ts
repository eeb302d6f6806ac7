import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as main from '../src/index.js';
import * as kit from '../src/kit.js';

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

describe('the public faces of @critsec/core (README "API")', () => {
  it('the main entry is the contract a composing user needs: 75 names', () => {
    expect(exportedNames('index.ts')).toHaveLength(75);
    // what an algorithm is written with is not on the main face
    for (const name of ['Deferred', 'PendingCall', 'Emitter', 'reach', 'parseInteger', 'isValidN']) {
      expect(Object.keys(main)).not.toContain(name);
    }
  });

  it('the /kit subpath holds the building blocks of an algorithm: 32 names, none also on the main face', () => {
    const names = exportedNames('kit.ts');
    expect(names).toHaveLength(32);
    const onMain = new Set(exportedNames('index.ts'));
    expect(names.filter((n) => onMain.has(n))).toEqual([]);
    expect(Object.keys(kit)).toContain('PendingCall');
  });

  it('an error thrown through the kit is the class the main entry exports', () => {
    expect(() => kit.parseInteger('n', 'x', 1)).toThrow(main.ConfigurationError);
  });
});
