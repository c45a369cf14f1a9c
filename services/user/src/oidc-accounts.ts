import { ImError, isDuplicateKeyError, conflict } from '@im/sdk';
import type { Types } from 'mongoose';
import type { UserDoc, UserModel } from './models.ts';
import type { OidcProfile } from './oidc-client.ts';
import { isTombstoneName, isUsernameRetired, isUsernameUsed } from './usernames.ts';

/** The registration rules for usernames (params.ts): 3-32 of a-z, 0-9, _ . - */
const USERNAME = /^[a-z0-9_.-]{3,32}$/;
const NICKNAME_MAX = 64;
/** Names tried before one with a random number is taken. */
const NUMBERED_TRIES = 20;

/** Lower-case, accents dropped, anything outside the username alphabet turned into '-'. */
function slug(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 32);
}

/** The names a new account could take, best first: preferred_username, the email's local part, the name. */
function usernameCandidates(profile: OidcProfile): string[] {
  const sources = [profile.preferredUsername, profile.email?.split('@')[0], profile.name];
  const names = sources.map((s) => (s ? slug(s) : '')).filter((s) => USERNAME.test(s));
  return [...new Set(names.length > 0 ? names : ['user'])];
}

/** Accounts by their link to the provider: finding, creating and linking them. */
export class OidcAccounts {
  readonly #users: UserModel;
  /** ADMIN_USERNAMES: never handed to an account the provider made, or it would be a server admin. */
  readonly #reserved: ReadonlySet<string>;

  constructor(users: UserModel, adminUsernames: readonly string[]) {
    this.#users = users;
    this.#reserved = new Set(adminUsernames);
  }

  find(issuer: string, sub: string): Promise<UserDoc | null> {
    return this.#users.findOne({ 'oidc.issuer': issuer, 'oidc.sub': sub }).lean<UserDoc>();
  }

  /**
   * A new account for the provider's account: a free username after its
   * profile, its name as nickname, no password. A concurrent first sign-in
   * of the same account wins the unique index; this one then answers it.
   */
  async create(issuer: string, sub: string, profile: OidcProfile): Promise<UserDoc> {
    const nickname = (profile.name ?? profile.preferredUsername ?? '').trim().slice(0, NICKNAME_MAX);
    const address = await this.#addressOf(profile);
    for (let attempt = 0; attempt < 5; attempt++) {
      const username = await this.#freeUsername(usernameCandidates(profile));
      try {
        const doc = await this.#users.create({
          username,
          nickname: nickname || username,
          nicknameLower: (nickname || username).toLowerCase(),
          oidc: { issuer, sub },
          ...address,
        });
        // The account of that name was deleted meanwhile: its name stays reserved, pick again.
        if (await isUsernameRetired(this.#users, username)) {
          await this.#users.deleteOne({ _id: doc._id });
          continue;
        }
        return doc.toObject();
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        const raced = await this.find(issuer, sub);
        if (raced) return raced;
        // Someone took the name meanwhile: pick again.
      }
    }
    throw conflict('No free username could be found for this account; try again');
  }

  /**
   * Links the provider's account to `userId` (replacing an earlier link of
   * that user). 409 when it is linked to someone else.
   */
  async link(userId: string, issuer: string, sub: string): Promise<void> {
    const owner = await this.#users.findOne({ 'oidc.issuer': issuer, 'oidc.sub': sub }, { _id: 1 }).lean<UserDoc>();
    if (owner && !sameId(owner._id, userId))
      throw conflict('That account at the sign-in provider is linked to another account here');
    if (owner) return;
    let matched: number;
    try {
      ({ matchedCount: matched } = await this.#users.updateOne(
        { _id: userId, status: 'active' },
        { $set: { oidc: { issuer, sub } } },
      ));
    } catch (err) {
      // Linked to someone else between the check and the write: the unique index decides.
      if (isDuplicateKeyError(err))
        throw conflict('That account at the sign-in provider is linked to another account here');
      throw err;
    }
    if (matched === 0) throw new ImError('IM_ERR_UNAUTHORIZED');
  }

  /**
   * The address the provider gave, verified only when it says it checked it
   * and no other account here has it verified (that one keeps it).
   */
  async #addressOf(profile: OidcProfile): Promise<Partial<UserDoc>> {
    if (!profile.email) return {};
    const emailLower = profile.email.toLowerCase();
    const verified = profile.emailVerified === true && !(await this.#users.exists({ verifiedEmail: emailLower }));
    return { email: profile.email, emailLower, ...(verified ? { verifiedEmail: emailLower } : {}) };
  }

  /**
   * The first candidate that is free and not reserved (ADMIN_USERNAMES, a
   * deleted account's name, a tombstone name), else the first with a number
   * after it.
   */
  async #freeUsername(candidates: string[]): Promise<string> {
    const allowed = (name: string) => USERNAME.test(name) && !this.#reserved.has(name) && !isTombstoneName(name);
    for (const name of candidates) if (allowed(name) && !(await isUsernameUsed(this.#users, name))) return name;
    // Numbered names start from a candidate that is not a tombstone name (else they would be one too).
    const stem = (candidates.find((name) => !isTombstoneName(name)) ?? 'user').slice(0, 26);
    for (let n = 2; n < 2 + NUMBERED_TRIES; n++) {
      const name = `${stem}${n}`;
      if (allowed(name) && !(await isUsernameUsed(this.#users, name))) return name;
    }
    return `${stem}${Math.floor(100_000 + Math.random() * 900_000)}`;
  }
}

const sameId = (id: Types.ObjectId, other: string) => id.toHexString() === other;
