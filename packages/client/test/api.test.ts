/**
 * The client against the service's OpenAPI document, and its portability: `generated/api.ts` was
 * generated from `@critsec/service`'s `openapi.json` as it is now (the SHA-256 its header
 * records; fails on drift: run `npm run api` in packages/client — `api.long.test.ts` generates it
 * again and compares the whole text), and `src/` uses no Node-only API (browsers, Deno, Bun).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_FILE, documentHash, HASH_LINE } from '../scripts/api-hash.js';

const src = new URL('../src/', import.meta.url);

describe('@critsec/client', () => {
  it("generated/api.ts was generated from the service's openapi.json as it is now (`npm run api` writes it)", () => {
    const recorded = HASH_LINE.exec(readFileSync(API_FILE, 'utf8'))?.[1];
    expect(recorded, 'generated/api.ts is stale: run `npm run api` in packages/client').toBe(documentHash());
  });

  it('src/ imports no node: module and uses no Node-only global (process, Buffer, require)', () => {
    const files = readdirSync(src).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const code = readFileSync(new URL(f, src), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, f).not.toMatch(/from\s+['"]node:|import\(\s*['"]node:/);
      expect(code, f).not.toMatch(/\b(process|Buffer|require|__dirname|global)\b\s*[.(]/);
    }
  });
});
