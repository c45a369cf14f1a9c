// The broadcast benchmark's reference: bare socket.io, the gateway's version
// and options (websocket transport, the same limits and heartbeat), no auth,
// no database, no services. Every socket joins one room; a `message:send`
// is stamped into a message shaped like the gateway's and emitted to the room,
// as the gateway's fan-out does, then acknowledged. Started by
// bare-socketio.ts with fork(); argv[2] is the parser (json or msgpack).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Message } from '@im/protocol';
import { Server } from 'socket.io';
import * as msgpackParser from 'socket.io-msgpack-parser';

export type BareRequest = { type: 'stats' } | { type: 'template'; message: Message };

export type BareReply =
  | { type: 'ready'; port: number }
  | { type: 'stats'; reqId: number; cpuMicros: number; fanoutMs: number[] }
  | { type: 'template'; reqId: number };

const ROOM = 'broadcast';

function main(): void {
  const parser = process.argv[2] === 'msgpack' ? 'msgpack' : 'json';
  // Until the coordinator hands over a message the gateway sent, one of the same fields.
  let template: Message = {
    id: '0'.repeat(24),
    converseId: '0'.repeat(24),
    seq: 0,
    authorId: '0'.repeat(24),
    content: '',
    createdAt: new Date().toISOString(),
    reactions: [],
    mentions: [],
    attachments: [],
  };
  let seq = 0;
  /** Each room emit's duration since the last `stats`: first socket write to last, as the gateway's histogram. */
  let fanoutMs: number[] = [];

  const http = createServer({ keepAliveTimeout: 65_000 });
  // The gateway's options (gateway/src/realtime/socket-server.ts), its default payload limit included.
  const io = new Server(http, {
    path: '/socket.io',
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: 65_536,
    pingInterval: 20_000,
    pingTimeout: 20_000,
    ...(parser === 'msgpack' ? { parser: msgpackParser } : {}),
  });
  // As the gateway: the upgrade request is not kept per session.
  io.engine.on('connection', (raw: { request: unknown }) => {
    raw.request = null;
  });
  io.on('connection', (socket) => {
    void socket.join(ROOM);
    socket.on('message:send', (body: { content?: unknown; clientMsgId?: unknown }, ack?: (a: unknown) => void) => {
      seq += 1;
      const message: Message = {
        ...template,
        id: seq.toString(16).padStart(24, '0'),
        seq,
        content: String(body?.content ?? ''),
        ...(typeof body?.clientMsgId === 'string' ? { clientMsgId: body.clientMsgId } : {}),
        createdAt: new Date().toISOString(),
      };
      const started = performance.now();
      io.to(ROOM).emit('message:new', message);
      fanoutMs.push(performance.now() - started);
      if (typeof ack === 'function') ack({ ok: true, data: message });
    });
  });

  process.on('message', (m: BareRequest & { reqId: number }) => {
    if (m.type === 'template') {
      template = { ...m.message };
      process.send!({ type: 'template', reqId: m.reqId } satisfies BareReply);
      return;
    }
    const cpu = process.cpuUsage();
    process.send!({ type: 'stats', reqId: m.reqId, cpuMicros: cpu.user + cpu.system, fanoutMs } satisfies BareReply);
    fanoutMs = [];
  });
  // The coordinator's end is this server's end.
  process.on('disconnect', () => process.exit(0));
  http.listen(0, '127.0.0.1', () => {
    process.send!({ type: 'ready', port: (http.address() as AddressInfo).port } satisfies BareReply);
  });
}

main();
