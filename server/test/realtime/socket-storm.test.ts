import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { io } from 'socket.io-client';
import { apiSuite } from '../support/api-suite.ts';
import type { ClientSocket } from './client.ts';

describe('a storm of sockets of one user', () => {
  const { api, sockets } = apiSuite(import.meta.url, { SOCKETS_PER_USER: '3' });

  it('opened all at once, leaves SOCKETS_PER_USER open, the others closed as one too many', async () => {
    const user = await api.user('storm');
    const STORM = 12;
    const codes: string[] = [];
    let disconnected = 0;
    let onClosed: () => void = () => undefined;
    const closedNine = new Promise<void>((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error(`only ${disconnected} closed`)), 30_000);
      onClosed = () => {
        if (disconnected === STORM - 3) {
          clearTimeout(guard);
          resolve();
        }
      };
    });
    const opened = await Promise.all(
      Array.from({ length: STORM }, () => {
        const socket: ClientSocket = io(api.base, {
          path: '/socket.io',
          transports: ['websocket'],
          auth: { token: user.token },
          reconnection: false,
          forceNew: true,
        });
        sockets.push(socket);
        socket.on('socket:closing', (e) => codes.push(e.code));
        socket.on('disconnect', () => {
          disconnected += 1;
          onClosed();
        });
        return new Promise<ClientSocket>((resolve, reject) => {
          socket.once('connect', () => resolve(socket));
          socket.once('connect_error', reject);
        });
      }),
    );
    await closedNine;
    assert.deepEqual(
      codes,
      Array.from({ length: STORM - 3 }, () => 'IM_ERR_LIMIT'),
      'each told why',
    );
    assert.equal(opened.filter((s) => s.connected).length, 3, 'SOCKETS_PER_USER stay open');
  });
});
