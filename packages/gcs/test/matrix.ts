/** Configurations of the compliance matrix, shared by the kMutex and gcs test files. */
import type { CSFactory } from '@critsec/core';
import type { Coterie } from '@critsec/coteries';

export interface Config {
  readonly coterie: Coterie;
  readonly l: number;
  readonly k: number;
  /** Seeds per delay model (default {@link seedsPerDelay}'s). */
  readonly seeds?: number;
  readonly rounds?: number;
  readonly mx?: readonly [string, CSFactory];
  readonly coverage?: readonly string[];
}

/** Config name: `<kind>-n<n>-l<l>-k<k>[-mx-<name>]`. */
export function configName(prefix: string, c: Config): string {
  return `${prefix}-${c.coterie.kind}-n${c.coterie.n}-l${c.l}-k${c.k}${c.mx ? `-mx-${c.mx[0]}` : ''}`;
}
