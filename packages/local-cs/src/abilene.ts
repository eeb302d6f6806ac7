/**
 * The Abilene research backbone (Internet2), the real network topology shipped with this package
 * for the local-CS paper's setting (Kamei & Kakugawa 2017, Sec. 1: resources shared between
 * neighbours of a network).
 *
 * Source: the `abilene` network of SNDlib 1.0 (S. Orlowski, R. Wessäly, M. Pióro, A. Tomaszewski,
 * "SNDlib 1.0 — Survivable Network Design Library", Networks 55(3), 2010; http://sndlib.zib.de),
 * which lists 12 routers and 15 links; its `ATLAM5` router hangs off Atlanta by a single link and
 * is merged into `ATLAng` here, leaving the 11 points of presence and 14 backbone links of the
 * Abilene maps published by Internet2 (2004–2007).
 */
import { type Graph, graphFromEdges } from '@critsec/core';

/** The 11 Abilene points of presence, in process-id order (SNDlib node names). */
export const ABILENE_NODES = [
  'ATLAng', // 0 Atlanta
  'CHINng', // 1 Chicago
  'DNVRng', // 2 Denver
  'HSTNng', // 3 Houston
  'IPLSng', // 4 Indianapolis
  'KSCYng', // 5 Kansas City
  'LOSAng', // 6 Los Angeles
  'NYCMng', // 7 New York
  'SNVAng', // 8 Sunnyvale
  'STTLng', // 9 Seattle
  'WASHng', // 10 Washington, DC
] as const;

/** The 14 Abilene backbone links, as pairs of SNDlib node names. */
export const ABILENE_LINKS: readonly (readonly [string, string])[] = [
  ['ATLAng', 'HSTNng'],
  ['ATLAng', 'IPLSng'],
  ['ATLAng', 'WASHng'],
  ['CHINng', 'IPLSng'],
  ['CHINng', 'NYCMng'],
  ['DNVRng', 'KSCYng'],
  ['DNVRng', 'SNVAng'],
  ['DNVRng', 'STTLng'],
  ['HSTNng', 'KSCYng'],
  ['HSTNng', 'LOSAng'],
  ['IPLSng', 'KSCYng'],
  ['LOSAng', 'SNVAng'],
  ['NYCMng', 'WASHng'],
  ['SNVAng', 'STTLng'],
];

/** The Abilene backbone as a graph (11 processes, 14 edges) with the name of each process. */
export function abilene(): {
  /** The 11 routers and 14 links, ids 0 … 10. */
  readonly graph: Graph;
  /** The router names by id (`ATLAng`, …). */
  readonly names: readonly string[];
} {
  const index = new Map<string, number>(ABILENE_NODES.map((name, i) => [name, i]));
  const graph = graphFromEdges(
    ABILENE_NODES.length,
    ABILENE_LINKS.map(([a, b]) => [index.get(a)!, index.get(b)!] as const),
  );
  return { graph, names: ABILENE_NODES };
}
