import type { Badge as BadgeCounts } from '../../state/unread.ts';

/** Mentions in red with their count; otherwise a dot for unread messages. */
export function Badge(props: { counts: BadgeCounts; testId?: string }) {
  const { unread, mentions } = props.counts;
  if (mentions > 0) {
    return (
      <span className="badge mention" data-testid={props.testId} aria-label={`${mentions} mentions`}>
        {mentions > 99 ? '99+' : mentions}
      </span>
    );
  }
  if (unread > 0) {
    return (
      <span className="badge unread" data-testid={props.testId} aria-label={`${unread} unread`}>
        {unread > 99 ? '99+' : unread}
      </span>
    );
  }
  return null;
}
