import type { FollowedThreadPage, Message } from '@im/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alice, bob } from '../test/fixtures.ts';
import { fakeServer, type FakeAnswer, type SeenRequest } from '../test/server.ts';
import { forgetAccountState } from './account-state.ts';
import { currentSocket } from './connection.ts';
import { loadCustomEmoji, useCustomEmoji } from './custom-emoji.ts';
import { signedFileUrl } from './file-urls.ts';
import { useReceipts, applyReceipt } from './receipts.ts';
import { login, logout, restoreSession } from './session.ts';
import { recentEmoji, rememberEmoji } from '../components/emoji/recent.ts';
import { getState, initialState, setState } from './store.ts';
import { loadFollowed, openThread, useThreads } from './threads.ts';
import { apiPath } from '@im/api-client';

const CONVERSE = 'f'.repeat(24);
const ROOT = 'e'.repeat(24);
const FILE = 'd'.repeat(24);
const GROUP = 'c'.repeat(24);
const reply = { id: 'b'.repeat(24), converseId: CONVERSE, seq: 2, threadId: ROOT, content: 'secret' } as Message;

/** A server that answers each account's calls, holding those `hold` names until released. */
function server(hold: (req: SeenRequest, token: string) => boolean = () => false) {
  const held: Array<() => void> = [];
  const tokens: string[] = [];
  const requests = fakeServer(async (req) => {
    const token = (vi.mocked(fetch).mock.calls.at(-1)?.[1]?.headers as Record<string, string>)?.Authorization ?? '';
    tokens.push(token);
    if (req.url === apiPath('user.login')) {
      const user = (req.body as { username: string }).username === 'alice' ? alice : bob;
      return { body: { token: `token-${user.username}`, user } };
    }
    if (hold(req, token)) await new Promise<void>((release) => held.push(release));
    return answer(req, token);
  });
  return { requests, tokens, release: () => held.splice(0).forEach((release) => release()) };
}

function answer(req: SeenRequest, token: string): FakeAnswer {
  if (token !== 'Bearer token-alice')
    return req.url.includes('/url')
      ? { status: 404, body: { error: { code: 'IM_ERR_NOT_FOUND', message: 'no' } } }
      : { body: [] };
  if (req.url.startsWith(apiPath('user.me'))) return { body: { ...alice, serverAdmin: false } };
  if (req.url.startsWith(apiPath('chat.threads'))) {
    const page: FollowedThreadPage = {
      items: [{ root: { ...reply, id: ROOT, seq: 1 }, unread: 1, readSeq: 1, lastReplyAt: '' }],
    } as unknown as FollowedThreadPage;
    return { body: page };
  }
  if (req.url.startsWith(apiPath('chat.thread', { messageId: ROOT })))
    return req.method === 'GET' ? { body: [reply] } : {};
  if (req.url.startsWith(apiPath('file.url', { fileId: FILE })))
    return {
      body: {
        url: `${apiPath('file.download', { fileId: FILE })}?sig=alice`,
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      },
    };
  if (req.url.startsWith(apiPath('group.listEmoji', { groupId: GROUP })))
    return { body: [{ name: 'party', url: '/e' }] };
  if (req.url === apiPath('user.logout')) return { status: 204 };
  return { body: [] };
}

/** Waits until the fake server's answer to the call of `path` has been taken in (its promise, then one turn). */
async function answered(path: string): Promise<void> {
  const fetchMock = vi.mocked(fetch);
  const index = fetchMock.mock.calls.findIndex(([url]) => String(url).startsWith(path));
  const response = fetchMock.mock.results[index]!.value as Promise<Response>;
  await response;
  await new Promise((turn) => setTimeout(turn, 0));
}

afterEach(async () => {
  await logout();
  vi.unstubAllGlobals();
  setState(initialState());
});

describe('signing out', () => {
  it("forgets Alice's threads, receipts, file links and emoji, and closes her socket", async () => {
    const { requests } = server();
    await login('alice', 'pw');
    await openThread(CONVERSE, ROOT);
    await loadFollowed();
    applyReceipt({ converseId: CONVERSE, userId: bob.id, readSeq: 2 });
    await signedFileUrl(FILE, 'file');
    await loadCustomEmoji(GROUP);
    expect(useThreads.getState().replies[ROOT]).toEqual([reply]);
    expect(useReceipts.getState().byConverse[CONVERSE]).toBeDefined();
    expect(useCustomEmoji.getState().byGroup[GROUP]).toHaveLength(1);

    // Alice's real socket.io client (no gateway behind this page: it only tries to connect).
    const socket = currentSocket()!;
    expect(socket.active).toBe(true);
    await logout();
    expect(socket.active).toBe(false);
    expect(currentSocket()).toBeNull();
    expect(getState().me).toBeNull();
    expect(useThreads.getState()).toEqual({ open: null, replies: {}, followed: null });
    expect(useReceipts.getState().byConverse).toEqual({});
    expect(useCustomEmoji.getState().byGroup).toEqual({});
    expect(localStorage.getItem('im.token')).toBeNull();

    // The next account asks for a file's link itself rather than being handed Alice's.
    await login('bob', 'pw');
    const asked = requests.filter((r) => r.url.startsWith(apiPath('file.url', { fileId: FILE }))).length;
    expect(await signedFileUrl(FILE, 'file')).toBeNull();
    expect(requests.filter((r) => r.url.startsWith(apiPath('file.url', { fileId: FILE })))).toHaveLength(asked + 1);
  });

  it("drops an answer for Alice's session that arrives after Bob signed in", async () => {
    const { release } = server(
      (req, token) => token === 'Bearer token-alice' && req.url.startsWith(apiPath('chat.threads')),
    );
    await login('alice', 'pw');
    const late = loadFollowed();
    await vi.waitFor(() =>
      expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url).startsWith(apiPath('chat.threads')))).toBe(true),
    );
    await logout();
    await login('bob', 'pw');
    release();
    let settled = false;
    void late.finally(() => (settled = true));
    await answered(apiPath('chat.threads'));
    expect(settled).toBe(false);
    expect(useThreads.getState().followed).toBeNull();
    expect(getState().notices).toEqual([]);
    expect(getState().me?.id).toBe(bob.id);
  });

  it("does not end Bob's session for a 401 answering Alice's call", async () => {
    let answer401 = (): void => undefined;
    const hold = new Promise<void>((release) => (answer401 = release));
    fakeServer(async (req) => {
      if (req.url === apiPath('user.login')) {
        const user = (req.body as { username: string }).username === 'alice' ? alice : bob;
        return { body: { token: `token-${user.username}`, user } };
      }
      if (req.url === apiPath('chat.thread', { messageId: ROOT, limit: 100 })) {
        await hold;
        return { status: 401, body: { error: { code: 'IM_ERR_UNAUTHORIZED', message: 'session ended' } } };
      }
      return { body: req.url.startsWith(apiPath('user.me')) ? alice : [] };
    });
    await login('alice', 'pw');
    void openThread(CONVERSE, ROOT);
    await logout();
    await login('bob', 'pw');
    answer401();
    await answered(apiPath('chat.thread', { messageId: ROOT }));
    expect(getState().me?.id).toBe(bob.id);
    expect(localStorage.getItem('im.token')).toBe('token-bob');
  });

  it('forgets the emoji Alice picked at sign-out, but not when her session resumes on a page load', async () => {
    server();
    localStorage.setItem('im.token', 'token-alice');
    rememberEmoji('🎉');
    expect(await restoreSession()).toBe(true);
    expect(recentEmoji()).toEqual(['🎉']);
    await logout();
    expect(recentEmoji()).toEqual([]);
  });

  it('forgets what this browser kept of Alice when Bob signs in over her saved session', async () => {
    server();
    await login('alice', 'pw');
    rememberEmoji('🎉');
    // A new page (nothing in memory), then a sign-in link for Bob over Alice's saved session.
    setState(initialState());
    await login('alice', 'pw');
    expect(recentEmoji()).toEqual(['🎉']);
    setState(initialState());
    await login('bob', 'pw');
    expect(recentEmoji()).toEqual([]);
    expect(localStorage.getItem('im.account')).toBe(bob.id);
  });

  it('resets every store a state module exports', async () => {
    const modules = import.meta.glob<Record<string, unknown>>(['./*.ts', '!./*.test.ts'], { eager: true });
    const stores = Object.values(modules)
      .flatMap((m) => Object.values(m))
      .filter(
        (v): v is { getState(): Record<string, unknown>; setState(p: object): void } =>
          typeof v === 'function' && 'getState' in v && 'setState' in v && 'subscribe' in v,
      );
    expect(stores.length).toBeGreaterThanOrEqual(5);
    for (const store of stores) store.setState({ leftBehind: true });
    forgetAccountState();
    for (const store of stores) expect(store.getState().leftBehind).toBeUndefined();
  });
});
