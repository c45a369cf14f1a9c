import { call, type ActionCaller } from '@im/sdk';
import type { Types } from 'mongoose';

/**
 * Tells the running platform what an import wrote: each group to the group
 * service (room index, caches, `group.member.joined` for its members), the
 * DMs to the chat service. Every step is safe to repeat.
 */
export async function announceImport(
  caller: ActionCaller,
  written: { groupIds: readonly Types.ObjectId[]; dmConverseIds: readonly Types.ObjectId[] },
): Promise<void> {
  for (const id of written.groupIds) await call(caller, 'group.adoptImported', { groupId: id.toHexString() });
  const dms = written.dmConverseIds.map((id) => id.toHexString());
  for (let i = 0; i < dms.length; i += 1000) {
    await call(caller, 'chat.adoptImportedDms', { converseIds: dms.slice(i, i + 1000) });
  }
}
