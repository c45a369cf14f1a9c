import type { EphemeralMessage, PublicUser } from '@im/protocol';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { afterEach, describe, expect, it } from 'vitest';
import { dismissEphemeral, receiveEphemeral } from '../../state/ephemeral.ts';
import { getState, initialState, setState, useStore } from '../../state/store.ts';
import { alice, bob, message, users } from '../../test/fixtures.ts';
import { listHandlers, showList } from '../../test/message-list.tsx';
import { MessageList } from './MessageList.tsx';

const deployBot: PublicUser = {
  id: 'e'.repeat(24),
  username: 'cmd-deploy',
  nickname: 'Deploy',
  createdAt: '2026-01-01T00:00:00.000Z',
  bot: true,
};
const withBot = { ...users, [deployBot.id]: deployBot };
const CONVERSE = message(1, bob, '').converseId;

function answer(id: string, content: string, createdAt: string): EphemeralMessage {
  return { id, converseId: CONVERSE, authorId: deployBot.id, content, createdAt, command: 'deploy' };
}

afterEach(() => setState(initialState()));

describe('Ephemeral answers', () => {
  it('shows an answer greyed among the messages by time, said to be for me only', () => {
    const m1 = message(1, bob, 'before', '2026-11-20T09:00:00.000Z');
    const m2 = message(2, bob, 'after', '2026-11-20T09:02:00.000Z');
    showList([m1, m2], {
      users: withBot,
      ephemeral: [answer('e1', 'Deployed to staging', '2026-11-20T09:01:00.000Z')],
    });
    const rows = [...document.querySelectorAll('[data-testid="message"], [data-testid="ephemeral-message"]')];
    expect(rows.map((r) => r.getAttribute('data-testid'))).toEqual(['message', 'ephemeral-message', 'message']);
    const item = screen.getByTestId('ephemeral-message');
    expect(item.className).toContain('ephemeral');
    expect(within(item).getByTestId('ephemeral-content').textContent).toBe('Deployed to staging');
    expect(within(item).getByText(/Only you can see this/)).toBeTruthy();
    expect(within(item).getByTestId('bot-badge')).toBeTruthy();
    expect(item.getAttribute('aria-label')).toBe('Deploy, only you can see this: Deployed to staging');
    // Not a message: the messages' own texts leave it out.
    expect(screen.getAllByTestId('message-content').map((c) => c.textContent)).toEqual(['before', 'after']);
  });

  it('asks its owner to dismiss it', () => {
    const one = answer('e1', 'Deployed', '2026-11-20T09:01:00.000Z');
    const h = listHandlers();
    showList([], { users: withBot, ephemeral: [one], h });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(h.onDismissEphemeral).toHaveBeenCalledWith(one);
  });

  it('comes from message:ephemeral into its converse, once, and goes when dismissed', () => {
    setState({ me: alice, users: withBot });
    function Live() {
      const held = useStore((s) => s.ephemeral[CONVERSE]);
      return (
        <VirtuosoMockContext.Provider value={{ viewportHeight: 600, itemHeight: 40 }}>
          <MessageList
            messages={[]}
            pending={[]}
            ephemeral={held}
            me={alice}
            users={withBot}
            canModerate={false}
            hasOlder={false}
            loadingOlder={false}
            handlers={{ ...listHandlers(), onDismissEphemeral: (m) => dismissEphemeral(m.converseId, m.id) }}
            openAt="oldest"
          />
        </VirtuosoMockContext.Provider>
      );
    }
    render(<Live />);
    const one = answer('e1', 'Deployed', new Date().toISOString());
    act(() => {
      receiveEphemeral(one);
      receiveEphemeral(one);
    });
    expect(screen.getAllByTestId('ephemeral-message')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('ephemeral-message')).toBeNull();
    expect(getState().ephemeral[CONVERSE]).toEqual([]);
  });

  it("ends the command's still-working note when its answer arrives", () => {
    setState({
      users: withBot,
      commandNotes: { [CONVERSE]: [{ id: 'c:1', converseId: CONVERSE, command: 'deploy', status: 'working' }] },
    });
    receiveEphemeral(answer('e1', 'Done at last', new Date().toISOString()));
    expect(getState().commandNotes[CONVERSE]).toEqual([]);
  });
});
