import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Group } from '@im/protocol';
import { Server } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { apiSuite } from '../support/api-suite.ts';
import { connectClient, sendOverSocket } from './client.ts';

// The gateway's socket.io server is private to its service: this file (its own
// process under node --test) notes every server socket.io attaches, to look
// at the server side of the sockets it opens.
const servers: Server[] = [];
const attach = Server.prototype.attach;
Server.prototype.attach = function (this: Server, ...args: Parameters<Server['attach']>) {
  servers.push(this);
  return attach.apply(this, args);
};

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Full GCs until `ref` is empty; a few rounds, since a WeakRef's target lives at least to the end of its task. */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let round = 0; round < 10 && ref.deref() !== undefined; round += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return ref.deref() === undefined;
}

describe('lean sockets: what an open socket keeps of its handshake', () => {
  const { api, sockets } = apiSuite(import.meta.url);
  /** The upgrade requests the gateway's engine saw, weakly (an engine middleware added after the gateway's). */
  const upgrades: Array<WeakRef<IncomingMessage>> = [];
  /** How many `close` listeners each upgrade's TCP socket had then: engine.io's response adds one. */
  const closeListeners: number[] = [];

  before(async () => {
    assert.equal(servers.length, 1, 'one socket.io server in the node');
    servers[0]!.engine.use((req: IncomingMessage, res: { socket?: Duplex }, next: () => void) => {
      upgrades.push(new WeakRef(req));
      closeListeners.push(res.socket?.listenerCount('close') ?? -1);
      next();
    });
  });

  it('authenticates with the token from the handshake, then keeps neither the token nor the headers', async () => {
    const owner = await api.user('lean');
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Lean' } }))
      .body;
    const a = await connectClient(api.base, owner.token);
    const b = await connectClient(api.base, owner.token);
    sockets.push(a, b);
    // The socket works as before: in its rooms, acting as its user.
    const sent = await sendOverSocket(a, group.panels[0]!.converseId, 'still me');
    assert.equal(sent.authorId, owner.id);

    const server = [...servers[0]!.of('/').sockets.values()];
    assert.equal(server.length, 2);
    for (const socket of server) {
      assert.equal(socket.data.userId, owner.id);
      assert.deepEqual(socket.handshake.auth, {}, 'the token is not kept');
      assert.deepEqual(socket.handshake.headers, {});
      assert.ok(Object.isFrozen(socket.handshake));
      // The peer's address is still known, from the connection.
      assert.match(socket.conn.remoteAddress, /127\.0\.0\.1$/);
      assert.equal(socket.conn.request, null);
    }
    assert.equal(server[0]!.handshake, server[1]!.handshake, 'one handshake object for all sockets');
  });

  it('still refuses a handshake without a valid token', async () => {
    const socket = connect(api.base, {
      transports: ['websocket'],
      auth: { token: 'nope' },
      reconnection: false,
      forceNew: true,
    });
    const err = await new Promise<Error & { data?: { code: string } }>((resolve) =>
      socket.once('connect_error', resolve),
    );
    socket.disconnect();
    assert.equal(err.data?.code, 'IM_ERR_UNAUTHORIZED');
  });

  it('lets the upgrade request be collected while its socket stays open', async () => {
    const user = await api.user('leanreq');
    const before = upgrades.length;
    const socket = await connectClient(api.base, user.token);
    sockets.push(socket);
    assert.equal(upgrades.length, before + 1);
    assert.equal(closeListeners[before], 0, "the upgrade response's close listener is gone");
    assert.ok(await collected(upgrades[before]!), 'the upgrade request is garbage once the socket is connected');
    assert.ok(socket.connected);
  });
});
