/*
 * The algorithms' flags, derived from their descriptors (the plug-in contract of @critsec/core):
 * every parameter a descriptor declares is a `--<name>` flag whose help says which algorithms
 * take it; `--param name=value` (repeatable) gives a parameter of any descriptor, a user's
 * included. A command's options become a `ClusterInput` ({ algorithm, n, params }) holding only
 * the parameters its algorithm takes; a parameter flag of another algorithm is refused.
 */
import { isAbsolute, resolve } from 'node:path';
import {
  ALGORITHMS,
  type AnyDescriptor,
  type ClusterRunInput,
  findAlgorithm,
  withAlgorithmModule,
} from '@critsec/cluster';
import { ConfigurationError, type ParamValue } from '@critsec/core';
import { describeParams } from '@critsec/core/kit';
import type { Command } from 'commander';
import type { SimulateInput } from './simulate.js';

/** One flag per parameter name, with the algorithms that take it and what each says of it. */
function parameterFlags(algorithms: readonly AnyDescriptor[] = ALGORITHMS): { name: string; help: string }[] {
  const byName = new Map<string, { algorithm: string; description: string }[]>();
  for (const d of algorithms) {
    for (const { name, description } of describeParams(d.params)) {
      const list = byName.get(name) ?? [];
      list.push({ algorithm: d.name, description });
      byName.set(name, list);
    }
  }
  return [...byName].map(([name, uses]) => {
    const groups = new Map<string, string[]>();
    for (const u of uses) groups.set(u.description, [...(groups.get(u.description) ?? []), u.algorithm]);
    const help = [...groups].map(([description, names]) => `${names.join(', ')}: ${description}`).join('; ');
    return { name, help };
  });
}

/** Registers the parameter flags of `algorithms` and `--param` on `cmd`. */
export function addParameterFlags(cmd: Command, algorithms: readonly AnyDescriptor[] = ALGORITHMS): Command {
  for (const f of parameterFlags(algorithms)) cmd.option(`--${f.name} <value>`, f.help);
  return cmd.option(
    '--param <name=value...>',
    "a parameter of the algorithm by name (any descriptor's, a user's included), e.g. --param l=2",
  );
}

/** The positional algorithm as a name of `algorithms` or an absolute module path (a user's descriptor). */
function algorithmName(algorithm: string): string {
  const looksLikePath = algorithm.startsWith('.') || algorithm.includes('/') || /\.[cm]?js$/.test(algorithm);
  return looksLikePath && !isAbsolute(algorithm) ? resolve(algorithm) : algorithm;
}

/**
 * The cluster description of a command's options: the algorithm (a name, or a module exporting
 * a descriptor), n (the command's default unless the algorithm's structure says it), and its
 * parameters from their flags and `--param`.
 * @throws ConfigurationError for a module that exports no descriptor, a parameter flag the
 *   algorithm does not take, or a `--param` not of the form name=value.
 */
export async function clusterInput(
  algorithm: string,
  o: Record<string, string | boolean | string[] | undefined>,
  defaultN: string,
  algorithms: readonly AnyDescriptor[] = ALGORITHMS,
): Promise<SimulateInput & ClusterRunInput> {
  const name = algorithmName(algorithm);
  const all = await withAlgorithmModule(name, algorithms);
  const descriptor = findAlgorithm(name, all);
  const takes = new Set(Object.keys(descriptor.params.entries));
  const flags = new Set(parameterFlags(algorithms).map((f) => f.name));
  const params: Record<string, ParamValue> = {};
  const run: Record<string, string> = {};
  for (const [key, value] of Object.entries(o)) {
    if (typeof value !== 'string') continue;
    if (!flags.has(key)) {
      run[key] = value;
      continue;
    }
    if (!takes.has(key)) {
      throw new ConfigurationError(
        `${descriptor.name} takes no --${key}; its parameters: ${[...takes].join(', ') || 'none'}`,
      );
    }
    params[key] = value;
  }
  for (const pair of (o.param as string[] | undefined) ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ConfigurationError(`--param ${pair}: give name=value, e.g. --param l=2`);
    params[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const n = typeof o.n === 'string' ? o.n : descriptor.defaultN === null ? undefined : defaultN;
  delete run.n;
  return { ...run, algorithm: name, algorithms: all, params, ...(n === undefined ? {} : { n }) };
}
