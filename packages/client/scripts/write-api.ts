/** Writes `generated/api.ts` from the service's OpenAPI document (`npm run api` in this package). */
import { writeFileSync } from 'node:fs';
import { generateApi } from './api.js';
import { API_FILE } from './api-hash.js';

writeFileSync(API_FILE, await generateApi());
console.log(`wrote ${API_FILE}`);
