// The benchmark's side of the public HTTP contract (shared/API.md): accounts,
// groups and invites, made the way any client makes them.
import { randomBytes } from 'node:crypto';
import { createApiClient, fetchTransport, type ApiClient } from '@im/api-client';
import type { Group } from '@im/protocol';
import { forEachLimited } from './progress.ts';

export interface Account {
  id: string;
  username: string;
  token: string;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

export async function api<T>(base: string, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 400) throw new ApiError(`${method} ${path}: ${res.status} ${await res.text()}`, res.status);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** The typed API client as `token` (none: signed out): `typedApi(base, token).call('group.create', { name })`. */
export const typedApi = (base: string, token?: string): ApiClient =>
  createApiClient(fetchTransport({ baseUrl: base, token: () => token }));

/** Accounts of one run share a fresh password and a run tag in their names. */
export class AccountPool {
  readonly accounts: Account[] = [];
  private readonly tag = randomBytes(3).toString('hex');
  private readonly password = randomBytes(12).toString('hex');
  private readonly base: string;

  constructor(base: string) {
    this.base = base;
  }

  /** Registers accounts until there are `count`, `concurrency` at a time; returns the first `count`. */
  async ensure(count: number, concurrency = 24): Promise<Account[]> {
    const missing = Array.from(
      { length: Math.max(0, count - this.accounts.length) },
      (_, i) => this.accounts.length + i,
    );
    await forEachLimited(missing, concurrency, `registering ${missing.length} users`, async (n) => {
      const username = `b${this.tag}_${n}`;
      const r = await typedApi(this.base).call('user.register', { username, password: this.password });
      this.accounts[n] = { id: r.user.id, username, token: r.token };
    });
    return this.accounts.slice(0, count);
  }
}

/** A group owned by one account, grown by members accepting an invite. */
export class BenchGroup {
  readonly id: string;
  readonly converseId: string;
  readonly memberIds = new Set<string>();
  private readonly base: string;
  private readonly owner: Account;
  private code: string | undefined;

  private constructor(base: string, owner: Account, group: Group) {
    this.base = base;
    this.owner = owner;
    this.id = group.id;
    this.converseId = group.panels[0]!.converseId;
    this.memberIds.add(owner.id);
  }

  static async create(base: string, owner: Account, name: string): Promise<BenchGroup> {
    return new BenchGroup(base, owner, await typedApi(base, owner.token).call('group.create', { name }));
  }

  /** Makes every account a member (those already in are skipped). */
  async join(accounts: readonly Account[], concurrency = 24, quiet = false): Promise<void> {
    this.code ??= (await typedApi(this.base, this.owner.token).call('group.createInvite', { groupId: this.id })).code;
    const todo = accounts.filter((a) => !this.memberIds.has(a.id));
    const accept = async (a: Account) => {
      await typedApi(this.base, a.token).call('group.acceptInvite', { code: this.code! });
      this.memberIds.add(a.id);
    };
    if (quiet) {
      for (let i = 0; i < todo.length; i += concurrency) await Promise.all(todo.slice(i, i + concurrency).map(accept));
    } else {
      await forEachLimited(todo, concurrency, `joining ${todo.length} members`, accept);
    }
  }

  /**
   * `count` private panels seen by `holders` only (and the owner): a role
   * given to each holder, allowed in every panel. Answers the panels' converses.
   */
  async privatePanels(count: number, holders: readonly Account[], concurrency = 24): Promise<string[]> {
    const owner = typedApi(this.base, this.owner.token);
    const groupId = this.id;
    const role = await owner.call('group.createRole', { groupId, name: 'insiders', permissions: [] });
    await forEachLimited(holders, concurrency, `giving ${holders.length} members the role`, (a) =>
      owner.call('group.giveRole', { groupId, userId: a.id, roleId: role.id }).then(() => undefined),
    );
    const converseIds: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const panel = await owner.call('group.createPanel', {
        groupId,
        name: `private ${i}`,
        type: 'text',
        private: true,
        allowRoleIds: [role.id],
      });
      converseIds.push(panel.converseId);
    }
    return converseIds;
  }
}
