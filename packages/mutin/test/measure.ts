/**
 * Kept for `bench/bounds.ts`, which imports the per-pair accounting from here: it now lives in
 * `@critsec/testing` (`sequentialPairs`, `channelTotal`); import it from there.
 */
export { channelTotal, sequentialPairs } from '@critsec/testing';
