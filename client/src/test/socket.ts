import type { Ack } from '@im/protocol';
import type { ChatSocket } from '../api/socket.ts';
import { setCurrentSocket } from '../state/connection.ts';

/** One emit the app made with an ack: the event and its body. */
export interface SeenEmit {
  event: string;
  body: unknown;
}

/**
 * Stands in for the gateway behind the session's socket in state tests:
 * `answer` gives each acked emit its reply, or holds it (a promise not yet
 * resolved). Undo with `setCurrentSocket(null)`.
 */
export function fakeSocket(answer: (emit: SeenEmit) => Ack<unknown> | Promise<Ack<unknown>>) {
  const emits: SeenEmit[] = [];
  const emitWithAck = async (event: string, body: unknown) => {
    const emit = { event, body };
    emits.push(emit);
    return answer(emit);
  };
  const socket = { connected: true, timeout: () => ({ emitWithAck }), emit: () => undefined };
  setCurrentSocket(socket as unknown as ChatSocket);
  return emits;
}
