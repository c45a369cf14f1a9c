import { call, callerId, type Ctx, notFound } from '@im/sdk';
import { Types } from 'mongoose';
import type { FileDoc, FileModel } from './models.ts';

/**
 * The file, if the caller uploaded it, is in a converse where it was
 * attached, is in a group whose custom emoji it is, or is a profile picture
 * or a group's icon; 404 otherwise (someone else's file does not exist for them).
 */
export async function readableFile(files: FileModel, ctx: Ctx<{ fileId: string }>): Promise<FileDoc> {
  const userId = callerId(ctx);
  // The id is validated (24 hex digits): the driver, without a mongoose query, is enough.
  const doc = await files.collection.findOne<FileDoc>({ _id: new Types.ObjectId(ctx.params.fileId) });
  if (!doc) throw notFound('file');
  // A profile picture or a group's icon is shown wherever its owner or group is: to everyone signed in.
  if (doc.uploaderId.toHexString() === userId || doc.avatarOf || doc.iconOf) return doc;
  for (const converseId of doc.converseIds) {
    if (await call(ctx, 'chat.access', { converseId: converseId.toHexString(), userId })) return doc;
  }
  for (const groupId of doc.groupIds ?? []) {
    if (await call(ctx, 'group.memberRole', { groupId: groupId.toHexString(), userId })) return doc;
  }
  throw notFound('file');
}
