import type { Message } from '@im/protocol';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { markUnreadFrom } from '../../state/attention.ts';
import { notify } from '../../state/store.ts';
import { Icon } from '../common/Icon.tsx';

/** "Mark as unread" in a message's actions: the converse reads as unread from this message on. */
export function MarkUnreadAction(props: { message: Message }) {
  const { t } = useTranslation();
  const { message } = props;
  // A thread reply is read in its thread: the converse's position is set from its own messages.
  if (message.threadId) return null;
  return (
    <button
      type="button"
      aria-label={t('attention.markUnread')}
      title={t('attention.markUnread.title')}
      onClick={() =>
        void markUnreadFrom(message.converseId, message.seq).catch((err: unknown) =>
          notify(t('attention.markUnread.failed', { reason: describeError(err) })),
        )
      }
    >
      <Icon name="unread" size={18} />
    </button>
  );
}
