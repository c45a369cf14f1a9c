import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyDeletedMessage, applyReactionEvent, applyUpdatedMessage } from '../../state/conversations.ts';
import { emptyConverse } from '../../state/messages.ts';
import { initialState, setState } from '../../state/store.ts';
import { openThread, receiveThreadReply, useThreads } from '../../state/threads.ts';
import { saveDraft, threadDraftKey } from '../../state/drafts.ts';
import { alice, bob, GROUP_ID, group, message, panel, users } from '../../test/fixtures.ts';
import { fakeServer as serve, type FakeAnswer, type SeenRequest } from '../../test/server.ts';
import { ThreadPane } from './ThreadPane.tsx';
import { apiPath } from '@im/api-client';

const root = {
  ...message(1, bob, 'Lunch at noon?'),
  thread: { replyCount: 1, lastReplyAt: '2026-11-20T09:05:00.000Z', participantIds: [alice.id] },
};
const firstReply = { ...message(2, alice, 'Sounds good'), threadId: root.id };

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
  useThreads.setState({ open: null, replies: {}, followed: null });
  // What a test left typed in the thread's composer is its draft: the next test starts empty.
  saveDraft(threadDraftKey(root.id), '');
});

/** The test's server, which also answers the upload limit the thread's composer asks for. */
const fakeServer = (answer: (req: SeenRequest) => FakeAnswer | Promise<FakeAnswer>) =>
  serve((req) =>
    req.url === apiPath('user.authOptions') ? { body: { registration: 'open', maxUploadBytes: 1 << 20 } } : answer(req),
  );

const Pane = (props: { converseId: string }) => (
  <ThreadPane converseId={props.converseId} members={[alice, bob]} canModerate={false} />
);

function showThread() {
  setState({ me: alice, users, converses: { [root.converseId]: { ...emptyConverse(), items: [root, firstReply] } } });
}

describe('ThreadPane', () => {
  it('shows the root and its replies, marks them read, and replies in the thread', async () => {
    showThread();
    const sent = { ...message(3, alice, 'I will book'), threadId: root.id };
    const requests = fakeServer((req) => {
      if (req.method === 'GET' && req.url.startsWith(apiPath('chat.thread', { messageId: root.id })))
        return { body: [firstReply] };
      if (req.method === 'POST' && req.url.endsWith('/messages')) return { status: 201, body: sent };
      return { status: 204 };
    });
    render(<Pane converseId={root.converseId} />);
    await act(() => openThread(root.converseId, root.id));

    const pane = screen.getByRole('complementary', { name: 'Thread' });
    expect(within(pane).getByTestId('thread-root').textContent).toContain('Lunch at noon?');
    expect(
      within(pane)
        .getAllByTestId('thread-reply')
        .map((r) => r.textContent),
    ).toEqual([expect.stringContaining('Sounds good')]);

    fireEvent.change(within(pane).getByLabelText('Reply in thread'), { target: { value: 'I will book' } });
    fireEvent.click(within(pane).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(within(pane).getAllByTestId('thread-reply')).toHaveLength(2));
    const send = requests.find((r) => r.method === 'POST' && r.url.endsWith('/messages'));
    expect(send?.url).toBe(apiPath('chat.history', { converseId: root.converseId }));
    expect(send?.body).toMatchObject({ content: 'I will book', threadId: root.id });
    // Emptied once the server took the reply (a failed send keeps the text).
    await waitFor(() => expect((within(pane).getByLabelText('Reply in thread') as HTMLTextAreaElement).value).toBe(''));
  });

  it('adds a live reply to the open thread and counts one in a followed thread that is not open', async () => {
    showThread();
    fakeServer(() => ({ body: [firstReply] }));
    render(<Pane converseId={root.converseId} />);
    await act(() => openThread(root.converseId, root.id));
    act(() => receiveThreadReply({ ...message(4, bob, 'See you there'), threadId: root.id }));
    expect(screen.getAllByTestId('thread-reply').map((r) => r.textContent)).toEqual([
      expect.stringContaining('Sounds good'),
      expect.stringContaining('See you there'),
    ]);

    const other = { ...message(5, alice, 'Other topic'), thread: root.thread };
    useThreads.setState({
      followed: [
        { root: other, converseId: other.converseId, lastReplyAt: root.thread.lastReplyAt, unread: 0, readSeq: 5 },
      ],
    });
    act(() => receiveThreadReply({ ...message(6, bob, 'about that'), threadId: other.id }));
    expect(useThreads.getState().followed?.[0]?.unread).toBe(1);
  });

  it('closes', async () => {
    showThread();
    fakeServer(() => ({ body: [] }));
    render(<Pane converseId={root.converseId} />);
    await act(() => openThread(root.converseId, root.id));
    fireEvent.click(screen.getByRole('button', { name: 'Close thread' }));
    expect(screen.queryByTestId('thread-pane')).toBeNull();
  });
  it('shows only beside its own converse, and again on the way back', async () => {
    showThread();
    fakeServer(() => ({ body: [firstReply] }));
    const { rerender } = render(<Pane converseId={root.converseId} />);
    await act(() => openThread(root.converseId, root.id));
    expect(screen.queryByRole('complementary', { name: 'Thread' })).not.toBeNull();
    rerender(<Pane converseId={'e'.repeat(24)} />);
    expect(screen.queryByRole('complementary', { name: 'Thread' })).toBeNull();
    rerender(<Pane converseId={root.converseId} />);
    expect(screen.queryByRole('complementary', { name: 'Thread' })).not.toBeNull();
  });

  it('draws replies as the timeline does: actions on each, a live edit, delete and reaction shown, no thread of their own', async () => {
    showThread();
    fakeServer(() => ({ body: [firstReply] }));
    render(<Pane converseId={root.converseId} />);
    await act(() => openThread(root.converseId, root.id));
    const reply = () => within(screen.getAllByTestId('thread-reply')[0]!);
    for (const action of ['Add reaction', 'Reply', 'Edit', 'Delete'])
      expect(reply().getByRole('button', { name: action })).toBeDefined();
    expect(reply().queryByRole('button', { name: 'Reply in thread' })).toBeNull();

    act(() => applyUpdatedMessage({ ...firstReply, content: 'Sounds great', editedAt: '2026-11-20T09:06:00.000Z' }));
    expect(reply().getByTestId('message-content').textContent).toBe('Sounds great (edited)');
    act(() =>
      applyReactionEvent({
        converseId: root.converseId,
        messageId: firstReply.id,
        emoji: '🎉',
        userId: bob.id,
        added: true,
        counts: [{ emoji: '🎉', count: 1 }],
      }),
    );
    expect(reply().getByRole('button', { name: '🎉 1' })).toBeDefined();
    act(() => applyDeletedMessage(root.converseId, firstReply.id));
    expect(reply().getByText('This message was deleted.')).toBeDefined();
  });

  it("offers the converse's members after @ in the thread's composer", async () => {
    showThread();
    fakeServer(() => ({ body: [] }));
    render(<Pane converseId={root.converseId} />);
    await act(() => openThread(root.converseId, root.id));
    fireEvent.change(screen.getByLabelText('Reply in thread'), { target: { value: '@bo', selectionStart: 3 } });
    const menu = screen.getByRole('listbox', { name: 'Mention a member' });
    expect(within(menu).getByRole('option').textContent).toContain('@bob');
  });

  it('edits my last reply with Up-arrow in the empty thread composer: Escape cancels, Enter saves', async () => {
    showThread();
    const requests = fakeServer((req) => {
      if (req.method === 'PATCH') return { body: { ...firstReply, content: 'Sounds good, booked' } };
      return { body: [firstReply] };
    });
    render(<Pane converseId={root.converseId} />);
    await act(() => openThread(root.converseId, root.id));
    const box = screen.getByLabelText('Reply in thread');
    box.focus();
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    const edit = within(screen.getAllByTestId('thread-reply')[0]!).getByRole('textbox', { name: 'Edit message' });
    expect((edit as HTMLTextAreaElement).value).toBe('Sounds good');
    fireEvent.keyDown(edit, { key: 'Escape' });
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(box));

    fireEvent.keyDown(box, { key: 'ArrowUp' });
    const again = screen.getByRole('textbox', { name: 'Edit message' });
    fireEvent.change(again, { target: { value: 'Sounds good, booked' } });
    fireEvent.keyDown(again, { key: 'Enter' });
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull());
    expect(requests.find((r) => r.method === 'PATCH')?.body).toMatchObject({ content: 'Sounds good, booked' });
    await waitFor(() => expect(document.activeElement).toBe(box));
  });

  it("offers the group's custom emoji after : in the thread's composer", async () => {
    showThread();
    setState({
      groups: { [GROUP_ID]: group({ panels: [panel(1, { converseId: root.converseId })] }) },
      groupOrder: [GROUP_ID],
    });
    const emoji = {
      name: 'party_parrot',
      fileId: 'f'.repeat(24),
      url: apiPath('file.download', { fileId: 'f'.repeat(24) }),
    };
    fakeServer((req) => {
      if (req.url === apiPath('group.listEmoji', { groupId: GROUP_ID })) return { body: [emoji] };
      return { body: [] };
    });
    render(<Pane converseId={root.converseId} />);
    await act(() => openThread(root.converseId, root.id));
    fireEvent.change(screen.getByLabelText('Reply in thread'), { target: { value: ':party', selectionStart: 6 } });
    const menu = await screen.findByRole('listbox', { name: 'Matching emoji' }, { timeout: 5000 });
    expect(await within(menu).findByRole('option', { name: ':party_parrot:' })).toBeDefined();
  });

  it('makes the root and replies one Tab stop, the arrows moving between them', async () => {
    showThread();
    fakeServer(() => ({ body: [firstReply] }));
    render(<Pane converseId={root.converseId} />);
    await act(() => openThread(root.converseId, root.id));
    const messages = () => within(screen.getByTestId('thread-pane')).getAllByTestId('message');
    await waitFor(() => expect(messages().filter((m) => m.tabIndex === 0)).toHaveLength(1));
    messages()[0]!.focus();
    fireEvent.keyDown(messages()[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(messages()[1]);
    await waitFor(() => expect(messages().map((m) => m.tabIndex)).toEqual([-1, 0]));
    expect(within(messages()[0]!).getByRole('button', { name: 'Reply', hidden: true }).tabIndex).toBe(-1);
  });
});
