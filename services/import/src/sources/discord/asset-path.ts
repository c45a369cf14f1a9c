import { posix } from 'node:path';

/**
 * Where a file the JSON points at lies inside the export, or undefined when
 * it is not there to read: a URL (the exporter ran without downloading
 * media), an absolute path, or a path leading out of the export. The
 * exporter writes media paths relative to the JSON file, with the separator
 * of the system it ran on, so `\` counts as one.
 */
export function assetName(jsonName: string, url: string | undefined): string | undefined {
  if (!url || /^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return undefined;
  const relative = url.replaceAll('\\', '/');
  if (relative.startsWith('/') || /^[a-z]:\//i.test(relative)) return undefined;
  const name = posix.normalize(posix.join(posix.dirname(jsonName), relative));
  if (name === '..' || name.startsWith('../') || name.startsWith('/')) return undefined;
  return name;
}

export const isLink = (url: string | undefined): boolean => !!url && /^[a-z][a-z0-9+.-]*:\/\//i.test(url);
