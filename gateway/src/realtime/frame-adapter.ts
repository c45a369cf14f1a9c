import { Adapter, type BroadcastOptions } from 'socket.io-adapter';

/** A WebSocket text frame (FIN, opcode 1, unmasked, as a server sends) holding `payload`: one buffer. */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81;
  if (length < 126) frame[1] = length;
  else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, headerLength);
  return frame;
}

/** What of engine.io's socket and ws's the direct write reads (none of it is in their typings). */
interface EngineSocket {
  readyState: string;
  writeBuffer: unknown[];
  transport?: {
    socket?: {
      readyState?: number;
      _sender?: { sendFrame?: (frame: Buffer[], cb?: (err?: Error) => void) => void };
    };
  };
}

interface TargetSocket {
  client: { conn: EngineSocket; writeToEngine(packets: unknown[], opts: object): void };
  notifyOutgoingListeners?: (packet: unknown) => void;
}

const WS_OPEN = 1;

/**
 * socket.io's in-memory adapter with a shorter path from a room emit to each
 * socket. A room emit is encoded once, as socket.io does, but its WebSocket
 * frame is one buffer instead of a header and a payload (one `write` per
 * socket instead of cork, two writes, uncork and `writev`), and it goes
 * straight to the socket's WebSocket when engine.io has nothing queued for
 * it, skipping engine.io's per-socket packet object, events and write
 * callback. A socket with packets queued (its transport busy) gets the frame
 * through engine.io behind them, so each socket's order is kept. Same bytes
 * on the wire; anything else (binary payloads, volatile emits, compression)
 * takes socket.io's own path.
 */
export class FrameAdapter extends Adapter {
  override broadcast(packet: { nsp?: string; data?: unknown }, opts: BroadcastOptions): void {
    const perMessageDeflate = (this.nsp as { server?: { engine?: { opts?: { perMessageDeflate?: unknown } } } }).server
      ?.engine?.opts?.perMessageDeflate;
    if (opts.flags?.volatile || perMessageDeflate) {
      super.broadcast(packet, opts);
      return;
    }
    packet.nsp = (this.nsp as { name: string }).name;
    const encoded = (this as unknown as { encoder: { encode(p: unknown): unknown[] } }).encoder.encode(packet);
    if (encoded.length !== 1 || typeof encoded[0] !== 'string') {
      // A binary payload: socket.io's own path encodes it again, but only this rare emit pays.
      super.broadcast(packet, opts);
      return;
    }
    // "4": engine.io's message packet type.
    const frame = [textFrame(Buffer.from(`4${encoded[0]}`))];
    const packetOpts = { preEncoded: true, wsPreEncodedFrame: frame };
    // `apply` (private in the typings) picks the sockets as socket.io's broadcast does: rooms, except, once each.
    const apply = (this as unknown as { apply(o: BroadcastOptions, cb: (s: TargetSocket) => void): void }).apply;
    apply.call(this, opts, (socket) => {
      socket.notifyOutgoingListeners?.(packet);
      const conn = socket.client.conn;
      const ws = conn.transport?.socket;
      const sendFrame = ws?._sender?.sendFrame;
      if (conn.readyState === 'open' && conn.writeBuffer.length === 0 && ws?.readyState === WS_OPEN && sendFrame) {
        sendFrame.call(ws._sender, frame);
      } else {
        socket.client.writeToEngine(encoded, packetOpts);
      }
    });
  }
}
