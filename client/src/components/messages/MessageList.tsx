import type { EphemeralMessage, Message, PublicUser } from '@im/protocol';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Virtuoso, type VirtuosoHandle, type VirtuosoProps } from 'react-virtuoso';
import type { PendingMessage } from '../../state/messages.ts';
import type { MessageHandlers } from './handlers.ts';
import { MessageItem, type ItemContext } from './MessageItem.tsx';
import { buildRows, type Row } from './rows.ts';
import { useStickToBottom } from './stick-to-bottom.ts';
import { useMessageRoving } from './useMessageRoving.ts';

// Virtuoso needs a stable index for the first row: it counts down as older pages are prepended.
const START_INDEX = 1_000_000_000;

export interface MessageListProps {
  messages: readonly Message[];
  pending: readonly PendingMessage[];
  /** Answers only I can see, shown among the messages by time. */
  ephemeral?: readonly EphemeralMessage[];
  me: PublicUser;
  users: Record<string, PublicUser>;
  canModerate: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  handlers: MessageHandlers;
  /**
   * Where the list opens: at the newest message (the app) or the oldest held.
   * Virtuoso's layout mock for jsdom cannot open anywhere but the top, so the
   * component tests open at the oldest; the browser tests cover the newest.
   */
  openAt?: 'newest' | 'oldest';
  /** The first unread seq when the converse was opened: a "New messages" divider goes above it. */
  firstUnreadSeq?: number;
  /**
   * A message to open at instead (the first unread, a search result): its
   * row at the top, or in the middle and highlighted for a moment. The list
   * opens there once it is held; remount the list (key) for another jump.
   */
  focus?: { seq: number; highlight: boolean };
  /** The messages held stop short of the newest: reaching the end loads more. */
  hasNewer?: boolean;
  onLoadNewer?: () => void;
}

/** How long a message a jump brought into view stays highlighted. */
const HIGHLIGHT_MS = 2500;

/**
 * The converse's messages, virtualized: only the rows near the viewport are in
 * the DOM, so 10,000 loaded messages scroll like 50. Opens at the newest,
 * follows new messages while scrolled to the bottom, loads older ones at the top.
 */
export function MessageList(props: MessageListProps) {
  const { t } = useTranslation();
  const { messages, pending, ephemeral, me, users, canModerate, handlers } = props;
  const { firstUnreadSeq, focus, hasNewer } = props;
  const [highlighting, setHighlighting] = useState(focus?.highlight ?? false);
  const built = useMemo(
    () => buildRows(messages, pending, me.id, ephemeral, firstUnreadSeq),
    [messages, pending, me.id, ephemeral, firstUnreadSeq],
  );
  const focusIndex = focus ? built.findIndex((r) => r.kind === 'message' && r.message.seq >= focus.seq) : -1;
  const highlightKey = highlighting && focusIndex >= 0 ? built[focusIndex]!.key : null;
  // The moment counts from when the message is shown, not from when it was asked for.
  useEffect(() => {
    if (!highlightKey) return;
    const timer = setTimeout(() => setHighlighting(false), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlightKey]);
  const rows = useMemo(
    () => (highlightKey ? built.map((r) => (r.key === highlightKey ? { ...r, highlight: true } : r)) : built),
    [built, highlightKey],
  );
  const ctx = useMemo<ItemContext>(() => ({ me, users, canModerate, handlers }), [me, users, canModerate, handlers]);
  const ref = useRef<VirtuosoHandle>(null);
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  // A window short of the newest has no end to stay at: reaching it loads more.
  const openedAtNewest = focusIndex < 0 && props.openAt !== 'oldest';
  // Opened at an older message, the list reaches its top while placing that
  // message: older pages wait for the reader's own scrolling (prepending them
  // then, on estimated row heights, threw the message out of view).
  const olderWaiting = useRef(false);
  const loadOlder = () => {
    if (props.hasOlder && !props.loadingOlder) handlers.onLoadOlder();
  };
  const stick = useStickToBottom(scroller, !hasNewer, openedAtNewest, () => {
    if (!olderWaiting.current) return;
    olderWaiting.current = false;
    loadOlder();
  });
  // One Tab stop for the list, arrows between messages; a message jumped to to show it takes focus.
  const roving = useMessageRoving(ref, focus?.highlight && focusIndex >= 0 ? built[focusIndex]!.key : undefined);
  const opening = useRef<{ key: string; at: VirtuosoProps<Row, unknown>['initialTopMostItemIndex'] }>(null);

  // The first row ever shown anchors the indexes; rows prepended before it get smaller ones.
  const anchor = useRef<string | null>(null);
  let anchorIndex = rows.findIndex((r) => r.key === anchor.current);
  if (anchorIndex < 0) {
    // First render, or the anchor is gone (history reset): the first row anchors now.
    anchor.current = rows[0]?.key ?? null;
    anchorIndex = 0;
  }
  const firstItemIndex = START_INDEX - anchorIndex;

  const lastRow = rows.at(-1);
  const followOutput = useCallback(
    (atBottom: boolean) =>
      !hasNewer && (atBottom || (lastRow?.kind === 'pending' && lastRow.pending.status === 'sending')) ? 'auto' : false,
    [lastRow, hasNewer],
  );

  if (rows.length === 0) {
    return (
      <div className="message-list empty" data-testid="message-list">
        <p>{props.loadingOlder ? t('timeline.loading') : t('timeline.empty')}</p>
      </div>
    );
  }

  // Where the list opens is decided once per opening: pages loaded later do not move it.
  const openingKey = focusIndex >= 0 ? 'focus' : 'edge';
  if (opening.current?.key !== openingKey) {
    opening.current = {
      key: openingKey,
      at:
        focusIndex >= 0
          ? { index: focusIndex, align: focus!.highlight ? 'center' : 'start' }
          : props.openAt === 'oldest'
            ? 0
            : { index: 'LAST', align: 'end' },
    };
  }

  return (
    <Virtuoso<Row, { loadingOlder: boolean; hasOlder: boolean }>
      // Opens afresh once the message to focus is held (it may arrive after the list shows).
      key={opening.current.key}
      ref={ref}
      scrollerRef={(el) => {
        roving.scrollerRef(el);
        setScroller(el instanceof HTMLElement ? el : null);
      }}
      tabIndex={-1}
      className="message-list"
      data-testid="message-list"
      data={rows}
      firstItemIndex={firstItemIndex}
      initialTopMostItemIndex={opening.current.at}
      computeItemKey={(_index, row) => row.key}
      itemContent={(_index, row) => <MessageItem row={row} ctx={ctx} />}
      followOutput={followOutput}
      startReached={() => {
        if (openedAtNewest || stick.touched()) loadOlder();
        else olderWaiting.current = true;
      }}
      endReached={() => {
        if (hasNewer) props.onLoadNewer?.();
      }}
      atBottomStateChange={(atBottom) => {
        // Only reaching the end pins: leaving it may be the viewport shrinking, which the pin undoes.
        if (atBottom) stick.pin();
        handlers.onAtBottomChange(atBottom);
      }}
      atBottomThreshold={48}
      increaseViewportBy={{ top: 400, bottom: 200 }}
      context={{ loadingOlder: props.loadingOlder, hasOlder: props.hasOlder }}
      components={{ Header: ListEdge }}
    />
  );
}

function ListEdge(props: { context?: { loadingOlder: boolean; hasOlder: boolean } }) {
  const { t } = useTranslation();
  if (props.context?.loadingOlder) return <div className="list-edge">{t('timeline.loadingOlder')}</div>;
  if (props.context && !props.context.hasOlder) {
    return <div className="list-edge">{t('timeline.beginning')}</div>;
  }
  return <div className="list-edge" />;
}
