import type { Message, Poll } from '@im/protocol';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyUpdatedMessage } from '../../state/conversations.ts';
import { emptyConverse } from '../../state/messages.ts';
import { getState, initialState, setState } from '../../state/store.ts';
import { alice, alex, bob, message, users } from '../../test/fixtures.ts';
import { fakeServer } from '../../test/server.ts';
import { PollCard } from './PollCard.tsx';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
});

const poll = (over: Partial<Poll> = {}): Poll => ({
  question: 'Lunch?',
  options: [
    { text: 'Pizza', votes: 3, voterIds: [alice.id, bob.id, alex.id] },
    { text: 'Sushi', votes: 1, voterIds: [bob.id] },
  ],
  multiple: false,
  anonymous: false,
  closed: false,
  myVotes: [],
  ...over,
});
const withPoll = (p: Poll, author = alice): Message => ({ ...message(4, author, p.question), poll: p });

/** The card as the store holds the message, so live updates and answers show. */
function Shown(props: { id: string }) {
  const held = getState().converses[withPoll(poll()).converseId]!.items.find((m) => m.id === props.id)!;
  return <PollCard message={held} me={getState().me!} users={users} />;
}

const hold = (m: Message) =>
  setState({ me: bob, users, converses: { [m.converseId]: { ...emptyConverse(), loaded: true, items: [m] } } });

describe('PollCard', () => {
  it('shows counts, shares, voters on hover and the labels', () => {
    const closesAt = '2030-01-01T12:00:00.000Z';
    const m = withPoll(poll({ closesAt, anonymous: false }));
    hold(m);
    render(<Shown id={m.id} />);
    const options = screen.getAllByTestId('poll-option');
    expect(options.map((o) => o.querySelector('[data-testid="poll-count"]')?.textContent)).toEqual([
      '3 · 75%',
      '1 · 25%',
    ]);
    expect(options[0]!.getAttribute('title')).toBe('Alice, Bob, Alexandra');
    expect(screen.getByText(/Closes at/)).toBeTruthy();
    expect(screen.getByTestId('poll-total').textContent).toBe('4 votes');
    // Not my poll: no Close.
    expect(screen.queryByText('Close poll')).toBeNull();
  });

  it('an anonymous poll names nobody; a closed one takes no vote', () => {
    const m = withPoll(
      poll({
        anonymous: true,
        closed: true,
        options: [
          { text: 'Yes', votes: 2 },
          { text: 'No', votes: 0 },
        ],
      }),
    );
    hold(m);
    render(<Shown id={m.id} />);
    expect(screen.getByText('Anonymous')).toBeTruthy();
    expect(screen.getByTestId('poll-closed')).toBeTruthy();
    for (const o of screen.getAllByTestId('poll-option')) expect(o.getAttribute('title')).toBeNull();
    expect((screen.getAllByRole('radio')[0] as HTMLInputElement).disabled).toBe(true);
  });

  it('votes through the server and keeps my vote when the converse hears of the change', async () => {
    const m = withPoll(poll());
    hold(m);
    const answered = {
      ...m,
      poll: poll({ myVotes: [1], options: [m.poll!.options[0]!, { text: 'Sushi', votes: 2 }] }),
    };
    const requests = fakeServer(() => ({ body: answered }));
    const { rerender } = render(<Shown id={m.id} />);
    fireEvent.click(screen.getAllByRole('radio')[1]!);
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]).toMatchObject({
      method: 'PUT',
      url: apiPath('chat.vote', { messageId: m.id }),
      body: { options: [1] },
    });
    await waitFor(() => expect(getState().converses[m.converseId]!.items[0]!.poll!.myVotes).toEqual([1]));
    // Someone else votes: the event carries no one's votes, mine stay.
    applyUpdatedMessage({ ...m, poll: poll({ options: [m.poll!.options[0]!, { text: 'Sushi', votes: 3 }] }) });
    rerender(<Shown id={m.id} />);
    expect(getState().converses[m.converseId]!.items[0]!.poll!.myVotes).toEqual([1]);
    expect(screen.getByTestId('poll-total').textContent).toBe('6 votes · you voted');
    expect((screen.getAllByRole('radio')[1] as HTMLInputElement).checked).toBe(true);
  });

  it('the author may close it; several choices are checkboxes', async () => {
    const m = withPoll(poll({ multiple: true, myVotes: [0] }), bob);
    hold(m);
    const requests = fakeServer((req) => ({
      body: req.url.endsWith('/close') ? { ...m, poll: { ...m.poll!, closed: true } } : m,
    }));
    render(<Shown id={m.id} />);
    expect(screen.getAllByRole('checkbox')).toHaveLength(2);
    fireEvent.click(screen.getAllByRole('checkbox')[1]!);
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]!.body).toEqual({ options: [0, 1] });
    fireEvent.click(screen.getByText('Close poll'));
    await waitFor(() =>
      expect(requests[1]).toMatchObject({ method: 'POST', url: apiPath('chat.closePoll', { messageId: m.id }) }),
    );
  });
});
