import type { ExportFiles } from '../../source/export-files.ts';

const LIST_AT_ROOT = /^(users|org_users|channels)\.json$/;
const LIST_ONE_DOWN = /^([^/]+\/)(users|org_users|channels)\.json$/;

/**
 * The export's files as seen from where its lists are. Slack's zip has them
 * at its root, but an export unpacked and zipped again by hand usually has
 * one folder around everything (`Acme Slack export/users.json`).
 */
export function exportRoot(files: ExportFiles): ExportFiles {
  if (files.names.some((name) => LIST_AT_ROOT.test(name))) return files;
  const prefix = files.names.map((name) => LIST_ONE_DOWN.exec(name)?.[1]).find((p) => p !== undefined);
  if (!prefix) return files;
  const names = files.names.filter((name) => name.startsWith(prefix)).map((name) => name.slice(prefix.length));
  return {
    names,
    has: (name) => files.has(prefix + name),
    open: (name) => files.open(prefix + name),
    close: () => files.close(),
  };
}
