import type { ChatSocket } from '../api/socket.ts';

let socket: ChatSocket | null = null;

/** The session's socket, when logged in. */
export function currentSocket(): ChatSocket | null {
  return socket;
}

export function setCurrentSocket(next: ChatSocket | null): void {
  socket = next;
}
