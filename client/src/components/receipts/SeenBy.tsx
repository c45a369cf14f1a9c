import type { Message, PublicUser } from '@im/protocol';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { loadReceipts, useReceipts } from '../../state/receipts.ts';
import { Avatar } from '../common/Avatar.tsx';

/** The people (not me, not the author) whose read position reached the message. */
export function seenBy(
  message: Pick<Message, 'seq' | 'authorId'>,
  reads: Readonly<Record<string, number>>,
  users: Readonly<Record<string, PublicUser>>,
  meId: string,
): PublicUser[] {
  return Object.entries(reads).flatMap(([userId, readSeq]) =>
    userId !== meId && userId !== message.authorId && readSeq >= message.seq && users[userId] ? [users[userId]] : [],
  );
}

/**
 * "Seen by" under my latest message of a converse: who has read up to it,
 * live as their receipts arrive. Nothing when nobody has, or the converse
 * has no receipts (over 50 members, or everyone keeps theirs to themselves).
 */
export function SeenBy(props: {
  converseId: string;
  messages: readonly Message[];
  me: PublicUser;
  users: Readonly<Record<string, PublicUser>>;
}) {
  const { converseId } = props;
  const { t, i18n } = useTranslation();
  useEffect(() => {
    void loadReceipts(converseId).catch(() => undefined);
  }, [converseId]);
  const reads = useReceipts((s) => s.byConverse[converseId]);
  const latest = props.messages.findLast((m) => !m.deleted);
  if (!latest || latest.authorId !== props.me.id || !reads) return null;
  const readers = seenBy(latest, reads, props.users, props.me.id);
  if (readers.length === 0) return null;
  const names = new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(
    readers.map((u) => u.nickname || u.username),
  );
  const text = t('timeline.seenBy', { names, count: readers.length });
  return (
    <p className="seen-by" data-testid="seen-by" aria-label={text}>
      <span className="seen-by-avatars" aria-hidden="true">
        {readers.slice(0, 5).map((u) => (
          <Avatar key={u.id} user={u} size={16} />
        ))}
      </span>
      {text}
    </p>
  );
}
