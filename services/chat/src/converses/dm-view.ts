import type { DmConverse } from '@im/protocol';
import type { ConverseDoc } from '../models.ts';
import { memberIdsOf } from '../store/dm-records.ts';

/** A DM as the API and `chat.dm.opened` show it. */
export const toDm = (doc: Pick<ConverseDoc, '_id' | 'memberIds'>): DmConverse => ({
  id: doc._id.toHexString(),
  type: 'dm',
  memberIds: memberIdsOf(doc),
});
