// Runs helm on the chart and reads what it renders the way the API server
// would: YAML 1.1 (where a bare `off` or `yes` is a boolean), no duplicate keys.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { CACHE_DIR, findBinary } from '@im/dev-servers';
import type { KubernetesObject } from './kubernetes-schema.ts';

export const CHART_DIR = fileURLToPath(new URL('../../../deploy/helm/im-platform/', import.meta.url));
export const FULL_VALUES = `${CHART_DIR}ci/full-values.yaml`;

const run = promisify(execFile);

/** A tool setup builds into the cache; missing, the test fails saying how to get it. */
export function tool(name: string): string {
  const found = findBinary(name);
  if (!found) throw new Error(`${name} not found on PATH or in ${CACHE_DIR}/bin (run: bash scripts/setup.sh test)`);
  return found;
}

/** helm with these arguments; rejects with helm's output when it exits non-zero. */
export async function helm(...args: string[]): Promise<string> {
  const binary = tool('helm');
  try {
    const { stdout } = await run(binary, args, { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    throw new Error(`helm ${args.join(' ')} failed:\n${stdout}${stderr}`);
  }
}

/** The objects `helm template` renders with the given extra arguments (-f file, --set a=b). */
export async function render(...args: string[]): Promise<KubernetesObject[]> {
  return parseManifests(await helm('template', 'chat', CHART_DIR, ...args));
}

export function parseManifests(text: string): KubernetesObject[] {
  return parseAllDocuments(text, { version: '1.1', uniqueKeys: true }).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`rendered YAML does not parse: ${doc.errors.join('; ')}`);
    const object = doc.toJS() as KubernetesObject | null;
    return object ? [object] : [];
  });
}
