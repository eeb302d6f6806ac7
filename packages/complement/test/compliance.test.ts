/**
 * The compliance suite on complements of a user-written CS object (the reference central
 * coordinator of @critsec/testing, which knows nothing about complements): Co-(mutex) is an
 * (n−1, n)-CS (mutual inclusion of all but one), Co-Co-(mutex) is mutual exclusion again.
 * complement(mutin({ l: n−1 })) as mutual exclusion is in @critsec/gcs's tests (kMutex, k = 1).
 */
import { globalSpec, mutexSpec } from '@critsec/core';
import { centralMutex, seedsPerDelay } from '@critsec/testing';
import { csCompliance } from '@critsec/testing/cs';
import { describe, it } from 'vitest';
import { complement } from '../src/index.js';

const seeds = seedsPerDelay(200);

describe('Co-(central mutex): the (n−1, n)-CS', () => {
  csCompliance({
    it,
    name: 'co-central-5',
    factory: complement(centralMutex()),
    spec: globalSpec(4, 5, 5),
    initial: ['InCS', 'InCS', 'InCS', 'InCS', 'InCS'],
    seeds,
    abort: false, // Co-A.entry() is the mutex's exit(), which never blocks: nothing to withdraw
  });
});

describe('Co-Co-(central mutex): mutual exclusion again, aborts included', () => {
  csCompliance({
    it,
    name: 'coco-central-5',
    factory: complement(complement(centralMutex())),
    spec: mutexSpec(5),
    initial: ['OutCS', 'OutCS', 'InCS', 'OutCS', 'OutCS'],
    seeds,
  });
});
