import assert from 'node:assert/strict';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { FrameAdapter, textFrame } from '../../../gateway/src/realtime/frame-adapter.ts';

/** Resolves with the first `count` payloads of `event` the socket receives, in order. */
function receive(socket: ClientSocket, event: string, count: number): Promise<unknown[]> {
  const got: unknown[] = [];
  return new Promise((resolve) => {
    const on = (payload: unknown) => {
      got.push(payload);
      if (got.length === count) {
        socket.off(event, on);
        resolve(got);
      }
    };
    socket.on(event, on);
  });
}

describe('the frame adapter: room emits written as one frame', () => {
  let http: HttpServer;
  let io: Server;
  const clients: ClientSocket[] = [];
  /** Server side of each client, by the client's index. */
  const peers: ServerSocket[] = [];

  before(async () => {
    http = createServer();
    // The gateway's options that matter here: websocket only, no compression (the default).
    io = new Server(http, { transports: ['websocket'], adapter: FrameAdapter });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    io.on('connection', (socket) => {
      const index = Number((socket.handshake.auth as { index: number }).index);
      peers[index] = socket;
      void socket.join(index < 3 ? ['room', `own:${index}`] : [`own:${index}`]);
      socket.emit('joined');
    });
    for (let index = 0; index < 4; index += 1) {
      const client = connect(url, { transports: ['websocket'], auth: { index }, reconnection: false });
      await new Promise((resolve) => client.once('joined', resolve));
      clients.push(client);
    }
  });

  after(async () => {
    for (const c of clients) c.disconnect();
    await io.close();
  });

  it('frames a payload as ws does, in each of the three length forms', () => {
    for (const [length, header] of [
      [5, [0x81, 5]],
      [300, [0x81, 126, 1, 44]],
      [70_000, [0x81, 127, 0, 0, 0, 0, 0, 1, 17, 112]],
    ] as const) {
      const payload = Buffer.alloc(length, 'x');
      const frame = textFrame(payload);
      assert.deepEqual([...frame.subarray(0, header.length)], header);
      assert.equal(frame.length, header.length + length);
      assert.ok(frame.subarray(header.length).equals(payload));
    }
  });

  it('delivers a room emit once to each socket in the room, none outside it or excepted, at every size', async () => {
    const sizes = [10, 300, 70_000];
    const inRoom = clients.slice(0, 3).map((c) => receive(c, 'm', sizes.length));
    let outsider = 0;
    clients[3]!.on('m', () => (outsider += 1));
    let excepted = 0;
    clients[2]!.on('n', () => (excepted += 1));
    const toTwo = [receive(clients[0]!, 'n', 1), receive(clients[1]!, 'n', 1)];
    for (const size of sizes) io.to('room').emit('m', { size, text: 'é'.repeat(size / 2) });
    io.to('room').except('own:2').emit('n', 'not to 2');
    for (const got of await Promise.all(inRoom)) {
      assert.deepEqual(
        got,
        sizes.map((size) => ({ size, text: 'é'.repeat(size / 2) })),
      );
    }
    assert.deepEqual(await Promise.all(toTwo), [['not to 2'], ['not to 2']]);
    // The outsider and the excepted socket: a last emit to them arrives after anything sent to them before.
    const last = [receive(clients[3]!, 'end', 1), receive(clients[2]!, 'end', 1)];
    io.to(['own:3', 'own:2']).emit('end');
    await Promise.all(last);
    assert.equal(outsider, 0);
    assert.equal(excepted, 0);
  });

  it("keeps each socket's order when engine.io has packets queued for it", async () => {
    // A socket's own emits go through engine.io, which queues them while its
    // last write is under way; room emits in between must wait behind them.
    const count = 400;
    const got = receive(clients[0]!, 'seq', count);
    for (let i = 0; i < count; i += 2) {
      peers[0]!.emit('seq', i);
      io.to('own:0').emit('seq', i + 1);
    }
    assert.deepEqual(
      await got,
      Array.from({ length: count }, (_, i) => i),
    );
  });

  it('sends a binary payload through socket.io’s own path', async () => {
    const got = receive(clients[1]!, 'bin', 1);
    io.to('own:1').emit('bin', Buffer.from([1, 2, 3]));
    const [payload] = await got;
    assert.deepEqual([...new Uint8Array(payload as ArrayBuffer)], [1, 2, 3]);
  });
});
