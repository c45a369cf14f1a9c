import assert from 'node:assert/strict';
import { createApiClient, fetchTransport, type ApiClient } from '@im/api-client';
import { type Page } from 'playwright-core';
import { PASSWORD } from './app.ts';

/** A signed-in account made through the API: for the setup steps a test is not about. */
export interface Account {
  id: string;
  username: string;
  token: string;
}

/**
 * Calls the JSON API by method and path as `token` (none: signed out) and
 * answers the parsed body; a failure throws with its status. For what the
 * typed client cannot say (a raw body, a hand-made path); else `typedApi`.
 */
export async function api<T>(base: string, token: string | null, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The typed API client (`typedApi(base, token).call('group.create', { name })`) as `token` (none: signed out). */
export const typedApi = (base: string, token: string | null): ApiClient =>
  createApiClient(fetchTransport({ baseUrl: base, token: () => token }));

export async function registerAccount(base: string, username: string): Promise<Account> {
  const result = await typedApi(base, null).call('user.register', { username, password: PASSWORD });
  return { id: result.user.id, username, token: result.token };
}

/** Opens the app signed in as `account` (its token saved as the app saves it), at `path`. */
export async function openAs(page: Page, base: string, account: Account, path = '/'): Promise<void> {
  await page.goto(base);
  await page.evaluate((t) => localStorage.setItem('im.token', t), account.token);
  await page.goto(`${base}${path}`);
  await page.getByRole('button', { name: 'Settings' }).waitFor();
  await page.getByTestId('connection').and(page.locator('[data-state="online"]')).waitFor({ state: 'attached' });
}

/** A group `owner` made (API), joined by invite by each of `members`: its id, first panel's converse and the invite. */
export async function groupWithMembers(base: string, owner: Account, name: string, members: Account[]) {
  const group = await typedApi(base, owner.token).call('group.create', { name });
  const { code } = await typedApi(base, owner.token).call('group.createInvite', { groupId: group.id });
  for (const member of members) await typedApi(base, member.token).call('group.acceptInvite', { code });
  return { groupId: group.id, converseId: group.panels[0]!.converseId, inviteCode: code };
}
