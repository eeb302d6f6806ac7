/**
 * The SHA-256 of `@critsec/service`'s OpenAPI document, which `generated/api.ts`'s header records when
 * it is generated (`scripts/api.ts`): `test/api.test.ts` compares the two without importing the
 * generator (cheap), `test/api.long.test.ts` generates the whole file again.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The checked-in file. */
export const API_FILE = fileURLToPath(new URL('../generated/api.ts', import.meta.url));

/** The OpenAPI document of `@critsec/service`. */
export const DOCUMENT_FILE = require.resolve('@critsec/service/openapi.json');

/** The SHA-256 (hex) of the document's text as it is now. */
export function documentHash(): string {
  return createHash('sha256').update(readFileSync(DOCUMENT_FILE)).digest('hex');
}

/** The line of `generated/api.ts`'s header that records the document's SHA-256 (the hash in group 1). */
export const HASH_LINE = /^ \* openapi\.json SHA-256: ([0-9a-f]{64})$/m;
