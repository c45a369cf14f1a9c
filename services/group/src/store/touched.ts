import type { UpdateQuery } from 'mongoose';

/** The top-level fields an update writes (`panels.$.name` touches `panels`). */
export function touchedFields(update: UpdateQuery<unknown>): Set<string> {
  const fields = new Set<string>();
  for (const [key, value] of Object.entries(update)) {
    const paths = key.startsWith('$') && value && typeof value === 'object' ? Object.keys(value) : [key];
    for (const path of paths) fields.add(path.split('.')[0]!);
  }
  return fields;
}

/** Every `converseId` written anywhere in an update (a pushed panel's, for one). */
export function converseIdsIn(value: unknown, found: string[] = []): string[] {
  if (!value || typeof value !== 'object') return found;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'converseId' && inner && typeof inner === 'object' && 'toHexString' in inner)
      found.push((inner as { toHexString(): string }).toHexString());
    else converseIdsIn(inner, found);
  }
  return found;
}
