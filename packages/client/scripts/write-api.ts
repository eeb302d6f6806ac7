/** Writes `src/api.ts` from the service's OpenAPI document (`npm run api` in this package). */
import { writeFileSync } from 'node:fs';
import { API_FILE, generateApi } from './api.js';

writeFileSync(API_FILE, await generateApi());
console.log(`wrote ${API_FILE}`);
