import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ImError, type AppContext, type ObjectStorage, noFileStorage } from '@im/sdk';
import type { Authenticator } from '../auth/authenticator.ts';

/** Multipart framing around a small image: a body declared past the limit by more than this is refused unread. */
const FRAMING = 16 * 1024;

const GROUP_ID = /^[0-9a-f]{24}$/;

export interface GroupImageUploadRules {
  /** The image's own limit in bytes. */
  maxBytes: number;
  tooLarge(): ImError;
  invalid(field: string, message: string): ImError;
}

/**
 * What every upload of a small image to a group (an emoji, its icon) checks
 * before reading the body: who asks, their upload rate, that this node
 * stores files, the group id, and a declared size far past the limit
 * (refused unread, the connection closed after the answer).
 */
export async function openGroupImageUpload(
  app: AppContext,
  auth: Authenticator,
  req: IncomingMessage,
  res: ServerResponse,
  params: Record<string, string | undefined>,
  rules: GroupImageUploadRules,
): Promise<{ userId: string; storage: ObjectStorage; groupId: string }> {
  const userId = await auth.fromRequest(req);
  await app.rateLimits.consume('upload', userId);
  const storage = app.storage;
  if (!storage) throw noFileStorage();
  const groupId = params.groupId ?? '';
  if (!GROUP_ID.test(groupId)) throw rules.invalid('groupId', "'groupId' must be an id");
  if (Number(req.headers['content-length'] ?? 0) > rules.maxBytes + FRAMING) {
    res.setHeader('connection', 'close');
    throw rules.tooLarge();
  }
  return { userId, storage, groupId };
}
