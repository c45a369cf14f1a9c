import type { ChatSocket } from '../api/socket.ts';
import { forgetOnSignOut } from './account-state.ts';

let socket: ChatSocket | null = null;

// The account's socket closes with its session: no event of it reaches the next account.
forgetOnSignOut('socket', () => {
  const closing = socket;
  socket = null;
  closing?.disconnect();
});

/** The session's socket, when logged in. */
export function currentSocket(): ChatSocket | null {
  return socket;
}

export function setCurrentSocket(next: ChatSocket | null): void {
  socket = next;
}
