import type { EphemeralMessage, Message } from '@im/protocol';
import { render } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { vi } from 'vitest';
import type { MessageHandlers } from '../components/messages/handlers.ts';
import { MessageList } from '../components/messages/MessageList.tsx';
import type { PendingMessage } from '../state/messages.ts';
import { alice, users as knownUsers } from './fixtures.ts';

/** Handlers that record their calls. */
export function listHandlers(): MessageHandlers {
  return {
    onLoadOlder: vi.fn(),
    onAtBottomChange: vi.fn(),
    onReact: vi.fn(),
    onReply: vi.fn(),
    onEdit: vi.fn(async () => true),
    onDelete: vi.fn(),
    onReport: vi.fn(),
    onRetry: vi.fn(),
    onDiscard: vi.fn(),
    onOpenImage: vi.fn(),
    onCopyLink: vi.fn(),
    onDismissEphemeral: vi.fn(),
  };
}

/** Renders the message list as Alice sees it, with a layout jsdom lacks, opened at the oldest row. */
export function showList(
  messages: Message[],
  opts: {
    pending?: PendingMessage[];
    ephemeral?: EphemeralMessage[];
    h?: MessageHandlers;
    hasOlder?: boolean;
    users?: typeof knownUsers;
  } = {},
) {
  const h = opts.h ?? listHandlers();
  render(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 600, itemHeight: 40 }}>
      <MessageList
        messages={messages}
        pending={opts.pending ?? []}
        ephemeral={opts.ephemeral}
        me={alice}
        users={opts.users ?? knownUsers}
        canModerate={false}
        hasOlder={opts.hasOlder ?? false}
        loadingOlder={false}
        handlers={h}
        openAt="oldest"
      />
    </VirtuosoMockContext.Provider>,
  );
  return h;
}
