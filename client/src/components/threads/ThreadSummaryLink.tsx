import { useTranslation } from 'react-i18next';
import type { Message } from '@im/protocol';
import { formatTime } from '../messages/format.ts';

/** Under a thread's root: "N replies", with when the last one came; opens the thread pane. */
export function ThreadSummaryLink(props: { message: Message; onOpen: () => void }) {
  const { t } = useTranslation();
  const thread = props.message.thread;
  if (!thread || thread.replyCount === 0) return null;
  return (
    <div className="thread-summary">
      <button type="button" className="link" data-testid="thread-summary" onClick={props.onOpen}>
        {t('threads.replies', { count: thread.replyCount })}
      </button>
      <span className="hint">
        {' '}
        · {t('threads.lastReply')} <time dateTime={thread.lastReplyAt}>{formatTime(thread.lastReplyAt)}</time>
      </span>
    </div>
  );
}
