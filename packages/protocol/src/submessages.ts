/**
 * Submessages: small JSON events attached to a message, stored and relayed
 * to its converse by the server, reduced into a widget's state by clients
 * (the model is Zulip's submessages). A new interactive widget needs no
 * server change: it defines what its events say and how they add up.
 */

import type { Id, Timestamp } from './index.ts';

export interface Submessage {
  id: Id;
  messageId: Id;
  converseId: Id;
  senderId: Id;
  /** JSON text (at most 4,096 characters): what the widget's event says. */
  content: string;
  createdAt: Timestamp;
}

/** `POST /api/messages/:id/submessages`. */
export interface SubmessageBody {
  content: string;
}
