/**
 * Writes the package's `openapi.json` from the valibot schemas (`npm run openapi` in this
 * package); `test/openapi.test.ts` fails when the checked-in file differs.
 */
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../src/openapi.js';

const file = new URL('../openapi.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${file.pathname}`);
