/**
 * `generated/api.ts` is, to the byte, what openapi-typescript generates now from `@critsec/service`'s
 * `openapi.json` (a hand edit, or another openapi-typescript output, fails here; `npm run api` in
 * packages/client writes it). Long suite: importing the generator costs ~3 CPU-s.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_FILE } from '../scripts/api-hash.js';
import { generateApi } from '../scripts/api.js';

describe('generated/api.ts', () => {
  it("is openapi-typescript's output for the service's openapi.json", async () => {
    expect(
      readFileSync(API_FILE, 'utf8'),
      'generated/api.ts is stale: run `npm run api` in packages/client',
    ).toBe(await generateApi());
  });
});
