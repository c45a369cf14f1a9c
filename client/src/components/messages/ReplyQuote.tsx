import { plainText } from '@im/markdown';
import type { Message, PublicUser } from '@im/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchMessage } from '../../state/conversations.ts';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { accountMap } from '../../state/account-state.ts';

const fetched = accountMap<string, Promise<Message | null>>('quoted messages');

/** The message replied to, quoted above the reply (fetched when it is older than what is loaded). */
export function ReplyQuote(props: { converseId: string; messageId: string; users: Record<string, PublicUser> }) {
  const { t } = useTranslation();
  const held = useStore((s) => s.converses[props.converseId]?.items.find((m) => m.id === props.messageId));
  const [loaded, setLoaded] = useState<Message | null | undefined>(undefined);
  useEffect(() => {
    if (held) return;
    let live = true;
    let request = fetched.get(props.messageId);
    if (!request) {
      request = fetchMessage(props.messageId);
      fetched.set(props.messageId, request);
    }
    void request.then((m) => live && setLoaded(m));
    return () => {
      live = false;
    };
  }, [held, props.messageId]);
  const quoted = held ?? loaded;
  if (quoted === undefined) return <div className="reply-quote">…</div>;
  if (quoted === null) return <div className="reply-quote">{t('timeline.reply.missing')}</div>;
  return (
    <div className="reply-quote" data-testid="reply-quote">
      <span className="author">{displayName(props.users[quoted.authorId])}</span>{' '}
      <span className="excerpt">{quoted.deleted ? t('timeline.reply.deleted') : plainText(quoted.content, 200)}</span>
    </div>
  );
}
