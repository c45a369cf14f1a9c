import { afterEach, describe, expect, it, vi } from 'vitest';
import { refusedRetryDelayMs, RECONNECT } from '../api/reconnect.ts';
import type { ChatSocket } from '../api/socket.ts';
import { setCurrentSocket } from './connection.ts';
import { attachRealtime } from './realtime.ts';
import { getState, initialState, setState } from './store.ts';

/** A socket as realtime.ts uses it: listeners, and socket.io's `active`/`connected` flags. */
function fakeSocket() {
  const listeners = new Map<string, Array<(...args: unknown[]) => void>>();
  const socket = {
    active: true,
    connected: false,
    connect: vi.fn(),
    on(event: string, listener: (...args: unknown[]) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return socket;
    },
    fire(event: string, ...args: unknown[]) {
      for (const l of listeners.get(event) ?? []) l(...args);
    },
  };
  return socket;
}

const refused = (data: Record<string, unknown>) => Object.assign(new Error(String(data.code)), { data });

afterEach(() => {
  vi.useRealTimers();
  setCurrentSocket(null);
  setState(initialState());
});

describe('reconnecting', () => {
  it('waits the delay a busy server names, or a random share of a doubling backoff', () => {
    expect(refusedRetryDelayMs(1, { code: 'IM_ERR_SERVICE_UNAVAILABLE', retryAfterMs: 3210 })).toBe(3210);
    expect(refusedRetryDelayMs(1, { retryAfterMs: 10 * 60_000 })).toBe(RECONNECT.delayMaxMs);
    expect(refusedRetryDelayMs(1, {}, () => 0)).toBe(500);
    expect(refusedRetryDelayMs(1, {}, () => 1)).toBe(1500);
    expect(refusedRetryDelayMs(4, {}, () => 1)).toBe(8500);
    expect(refusedRetryDelayMs(20, {}, () => 1)).toBe(500 + RECONNECT.delayMaxMs);
    // Clients refused together spread over the whole range, not one instant.
    const delays = new Set(Array.from({ length: 50 }, () => refusedRetryDelayMs(3, {})));
    expect(delays.size).toBeGreaterThan(40);
  });

  it('connects again after a refused handshake, when the server said, and says it is reconnecting', () => {
    vi.useFakeTimers();
    const socket = fakeSocket();
    setCurrentSocket(socket as unknown as ChatSocket);
    attachRealtime(socket as unknown as ChatSocket, () => undefined);
    // socket.io stops retrying by itself when the server refused the handshake.
    socket.active = false;
    socket.fire('connect_error', refused({ code: 'IM_ERR_SERVICE_UNAVAILABLE', retryAfterMs: 2500 }));
    expect(getState().connection).toBe('reconnecting');
    vi.advanceTimersByTime(2499);
    expect(socket.connect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(socket.connect).toHaveBeenCalledTimes(1);
  });

  it('leaves network failures to socket.io, and a refused token to the session', () => {
    vi.useFakeTimers();
    const socket = fakeSocket();
    const unauthorized = vi.fn();
    setCurrentSocket(socket as unknown as ChatSocket);
    attachRealtime(socket as unknown as ChatSocket, unauthorized);
    socket.fire('connect_error', new Error('xhr poll error'));
    vi.advanceTimersByTime(60_000);
    expect(socket.connect).not.toHaveBeenCalled();
    socket.active = false;
    socket.fire('connect_error', refused({ code: 'IM_ERR_UNAUTHORIZED' }));
    vi.advanceTimersByTime(60_000);
    expect(unauthorized).toHaveBeenCalledTimes(1);
    expect(socket.connect).not.toHaveBeenCalled();
  });
  it('stays closed when the server closed it as the oldest of too many windows, and says so', () => {
    const socket = fakeSocket();
    setCurrentSocket(socket as unknown as ChatSocket);
    attachRealtime(socket as unknown as ChatSocket, () => undefined);
    socket.fire('connect');
    socket.fire('socket:closing', { code: 'IM_ERR_LIMIT', message: 'Too many sockets' });
    socket.active = false;
    socket.fire('disconnect', 'io server disconnect');
    expect(getState().connection).toBe('displaced');
    expect(socket.connect).not.toHaveBeenCalled();
  });
});

describe('a gateway whose cluster link came back (sync:required)', () => {
  it('syncs from the last message held, as after a reconnect, and shows what it missed', async () => {
    const socket = fakeSocket();
    const asked: unknown[] = [];
    const message = { authorId: 'u2', createdAt: '', reactions: [], mentions: [], attachments: [] };
    const missed = { ...message, id: 'm2', converseId: 'c1', seq: 2, content: 'missed' };
    Object.assign(socket, {
      connected: true,
      timeout: () => ({
        emitWithAck: async (event: string, body: unknown) => {
          asked.push([event, body]);
          return { ok: true, data: { converses: { c1: { messages: [missed] } } } };
        },
      }),
    });
    setCurrentSocket(socket as unknown as ChatSocket);
    attachRealtime(socket as unknown as ChatSocket, () => undefined);
    const held = { ...message, id: 'm1', converseId: 'c1', seq: 1, content: 'held' };
    setState({
      converses: {
        c1: { items: [held as never], pending: [], loaded: true, hasOlder: false, loadingOlder: false },
      },
    });
    socket.fire('sync:required', { reason: 'cluster-reconnect' });
    await vi.waitFor(() => expect(asked.length).toBe(1));
    await vi.waitFor(() => expect(getState().converses.c1!.items.map((m) => m.seq)).toEqual([1, 2]));
    expect(asked[0]).toEqual(['sync', { cursors: { c1: 1 } }]);
  });
});
