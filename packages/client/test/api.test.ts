/**
 * The client against the service's OpenAPI document, and its portability: `src/api.ts` is what
 * openapi-typescript generates from `@critsec/service`'s `openapi.json` (fails on drift: run `npm
 * run api` in packages/client), and `src/` uses no Node-only API (browsers, Deno, Bun).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_FILE, generateApi } from '../scripts/api.js';

const src = new URL('../src/', import.meta.url);

describe('@critsec/client', () => {
  it("src/api.ts is openapi-typescript's output for the service's openapi.json (`npm run api` writes it)", async () => {
    const expected = await generateApi();
    expect(readFileSync(API_FILE, 'utf8'), 'src/api.ts is stale: run `npm run api` in packages/client').toBe(
      expected,
    );
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
