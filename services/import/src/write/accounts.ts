import type { Types } from 'mongoose';
import type { SourceUser } from '../source/types.ts';
import type { ImportCollections } from './collections.ts';
import type { DerivedIds } from './ids.ts';

/** What the writer knows of each person of the export once accounts are settled. */
export interface Person {
  id: Types.ObjectId;
  username: string;
  /** Made by this import (or an earlier run of it), rather than an account that was there. */
  imported: boolean;
  deleted: boolean;
}

const USERNAME = /^[a-z0-9_.-]{3,32}$/;

/** A valid username from what the export calls someone (lower-case, 3-32 of `a-z0-9_.-`). */
export function usernameFrom(name: string, fallback: string): string {
  let u = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, '.')
    .replace(/[^a-z0-9_.-]/g, '')
    .slice(0, 32);
  if (u.length < 3) u = `${u}${fallback}`.replace(/[^a-z0-9_.-]/g, '').slice(0, 32);
  return u.length >= 3 ? u : `user-${u}`.padEnd(3, '0');
}

/**
 * Settles who every person of the export is here: the account this import
 * made for them on an earlier run (its derived id); else an account with the
 * same e-mail; else one with the same username (case-insensitive; not for
 * people deleted at the source, whose names may have been taken since); else
 * a new imported account (no password, `imported: true`) under a free name.
 * Answers the people by key and how many accounts were made.
 */
export async function settleAccounts(
  c: ImportCollections,
  ids: DerivedIds,
  people: readonly SourceUser[],
): Promise<{ byKey: Map<string, Person>; made: number; importedBefore: number }> {
  const byKey = new Map<string, Person>();
  const derived = people.map((p) => ids.id('user', p.key));
  const CHUNK = 500;
  const found = new Map<string, { _id: Types.ObjectId; username: string; imported?: boolean }>();
  const byEmail = new Map<string, { _id: Types.ObjectId; username: string; imported?: boolean }>();
  const byName = new Map<string, { _id: Types.ObjectId; username: string; imported?: boolean }>();
  for (let i = 0; i < people.length; i += CHUNK) {
    const slice = people.slice(i, i + CHUNK);
    const projection = { _id: 1, username: 1, emailLower: 1, imported: 1 };
    const [own, emails, names] = await Promise.all([
      c.users.find({ _id: { $in: derived.slice(i, i + CHUNK) } }, { projection }).toArray(),
      c.users
        .find({ emailLower: { $in: slice.flatMap((p) => (p.email ? [p.email.toLowerCase()] : [])) } }, { projection })
        .toArray(),
      c.users.find({ username: { $in: slice.map((p) => p.username.toLowerCase()) } }, { projection }).toArray(),
    ]);
    for (const u of own) found.set(String(u._id), u as never);
    for (const u of emails) byEmail.set(String(u.emailLower), u as never);
    for (const u of names) byName.set(String(u.username), u as never);
  }

  const toMake: Array<Record<string, unknown>> = [];
  const taken = new Set<string>();
  let importedBefore = 0;
  for (const [i, p] of people.entries()) {
    const id = derived[i]!;
    const mine = found.get(id.toHexString());
    if (mine) {
      byKey.set(p.key, { id, username: mine.username, imported: true, deleted: p.deleted === true });
      importedBefore++;
      continue;
    }
    const match =
      (p.email ? byEmail.get(p.email.toLowerCase()) : undefined) ??
      (p.deleted ? undefined : byName.get(p.username.toLowerCase()));
    if (match) {
      byKey.set(p.key, { id: match._id, username: match.username, imported: false, deleted: false });
      continue;
    }
    // A name asked for above and not found needs no second look.
    const free = (name: string) => name === p.username.toLowerCase() && !byName.has(name);
    const username = await freeUsername(c, usernameFrom(p.username, p.key.toLowerCase()), taken, free);
    taken.add(username);
    const nickname = (p.displayName?.trim() || p.username).slice(0, 64);
    toMake.push({
      _id: id,
      username,
      nickname,
      nicknameLower: nickname.toLowerCase(),
      status: 'active',
      imported: true,
      ...(p.email && !byEmail.has(p.email.toLowerCase()) ? { email: p.email, emailLower: p.email.toLowerCase() } : {}),
      createdAt: new Date(),
    });
    byKey.set(p.key, { id, username, imported: true, deleted: p.deleted === true });
  }
  let made = 0;
  for (let i = 0; i < toMake.length; i += CHUNK) {
    try {
      await c.users.insertMany(toMake.slice(i, i + CHUNK), { ordered: false });
      made += Math.min(CHUNK, toMake.length - i);
    } catch (err) {
      const n = (err as { insertedCount?: number }).insertedCount;
      if (typeof n !== 'number') throw err;
      made += n;
    }
  }
  return { byKey, made, importedBefore };
}

/** `base`, or `base-2`, `base-3`... whichever no account holds (nor one this import is about to make). */
async function freeUsername(
  c: ImportCollections,
  base: string,
  taken: ReadonlySet<string>,
  knownFree: (name: string) => boolean,
): Promise<string> {
  for (let n = 1; n < 1000; n++) {
    const suffix = n === 1 ? '' : `-${n}`;
    const name = base.slice(0, 32 - suffix.length) + suffix;
    if (!USERNAME.test(name) || taken.has(name)) continue;
    if (knownFree(name)) return name;
    if (!(await c.users.findOne({ username: name }, { projection: { _id: 1 } }))) return name;
  }
  throw new Error(`no free username near ${base}`);
}
