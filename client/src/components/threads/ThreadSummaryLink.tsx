import type { Message } from '@im/protocol';
import { formatTime } from '../messages/format.ts';

/** Under a thread's root: "N replies", with when the last one came; opens the thread pane. */
export function ThreadSummaryLink(props: { message: Message; onOpen: () => void }) {
  const thread = props.message.thread;
  if (!thread || thread.replyCount === 0) return null;
  const label = thread.replyCount === 1 ? '1 reply' : `${thread.replyCount} replies`;
  return (
    <div className="thread-summary">
      <button type="button" className="link" data-testid="thread-summary" onClick={props.onOpen}>
        {label}
      </button>
      <span className="hint">
        {' '}
        · last reply <time dateTime={thread.lastReplyAt}>{formatTime(thread.lastReplyAt)}</time>
      </span>
    </div>
  );
}
