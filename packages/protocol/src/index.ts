/**
 * Types shared by the server and the web client: the public contract of
 * shared/API.md. Only types live here, so the client bundles nothing extra.
 */

export interface ApiError {
  error: { code: `IM_ERR_${string}`; message: string; details?: unknown };
}

export interface HealthResponse {
  status: 'ok';
}

export interface ReadyResponse {
  status: 'ready' | 'unavailable';
  /** Each dependency of the node: 'ok' or why it failed. */
  checks: Record<string, string>;
  /** Present when not ready: the names of the failed checks. */
  failed?: string[];
}

/** `user` of the API: what anyone may see of a user. */
export interface PublicUser {
  id: string;
  username: string;
  nickname: string;
  avatar?: string;
  createdAt: string;
}

export interface AuthResult {
  token: string;
  user: PublicUser;
}

export type GroupRole = 'owner' | 'admin' | 'member';

export interface Panel {
  id: string;
  name: string;
  type: 'text';
  /** Messages of a text panel are sent to this converse. */
  converseId: string;
}

export interface Group {
  id: string;
  name: string;
  ownerId: string;
  panels: Panel[];
  memberCount: number;
  /** The caller's role. */
  myRole: GroupRole;
}

export interface Member {
  user: PublicUser;
  role: GroupRole;
  joinedAt: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface Invite {
  code: string;
  expiresAt: string;
  /** null: unlimited. */
  maxUses: number | null;
}

export interface Reaction {
  emoji: string;
  count: number;
  /** Whether the caller reacted with it. */
  me: boolean;
}

export interface Message {
  id: string;
  converseId: string;
  /** +1 per message within the converse, no gaps. */
  seq: number;
  authorId: string;
  /** Empty for a deleted message (its tombstone keeps the seq). */
  content: string;
  createdAt: string;
  editedAt?: string;
  deleted?: true;
  reactions: Reaction[];
  /** Ids of the members the content @mentions, resolved by the server. */
  mentions: string[];
  attachments: string[];
  replyTo?: string;
  clientMsgId?: string;
}

export interface DmConverse {
  id: string;
  type: 'dm';
  memberIds: string[];
}

export interface UnreadEntry {
  converseId: string;
  lastSeq: number;
  readSeq: number;
  unread: number;
  mentions: number;
}
