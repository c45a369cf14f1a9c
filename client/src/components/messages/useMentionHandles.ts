import type { Message } from '@im/protocol';
import { useMemo } from 'react';
import { useStore } from '../../state/store.ts';
import { useGroupUserGroups } from '../groups/useGroupUserGroups.ts';

const NONE: string[] = [];

/**
 * The handles of the user groups of a message's group, to show `@handle` as
 * a mention. Only a message that writes `@` looks for its group.
 */
export function useMentionHandles(message: Message): string[] {
  const writesAt = !message.deleted && message.content.includes('@');
  const groupId = useStore((s) =>
    writesAt
      ? Object.values(s.groups).find((g) => g.panels.some((p) => p.converseId === message.converseId))?.id
      : undefined,
  );
  const userGroups = useGroupUserGroups(groupId);
  return useMemo(() => (userGroups.length === 0 ? NONE : userGroups.map((u) => u.handle)), [userGroups]);
}
