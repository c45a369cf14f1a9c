import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { initialState, setState } from '../../state/store.ts';
import { forgetUserGroups, useUserGroups } from '../../state/user-groups.ts';
import { alice, bob, group, GROUP_ID, message, panel, users } from '../../test/fixtures.ts';
import { showList as show } from '../../test/message-list.tsx';
import { forwardTargets } from './forward-targets.ts';
import { mentionCandidates, userGroupMentions } from './mentions.ts';

afterEach(() => {
  setState(initialState());
  forgetUserGroups();
});

const ORIGIN_CONVERSE = panel(1).converseId;
const forwarded = () => ({
  ...message(5, alice, 'the release is out'),
  forwarded: {
    messageId: 'o'.repeat(24),
    converseId: ORIGIN_CONVERSE,
    authorId: bob.id,
    createdAt: '2026-11-20T08:00:00.000Z',
  },
});

describe('forwarded messages', () => {
  it('name their origin with a link back when I can read it', () => {
    setState({ me: alice, users, groups: { [GROUP_ID]: group() } });
    show([forwarded()]);
    const card = screen.getByTestId('forwarded-from');
    expect(card.textContent).toContain('Forwarded from #general · Team');
    expect(card.textContent).toContain('Bob');
    expect(within(card).getByRole('button', { name: 'Go to original' })).toBeTruthy();
  });

  it('say only who wrote it and when, with no link, when I cannot read the origin', () => {
    setState({ me: alice, users, groups: {} });
    show([forwarded()]);
    const card = screen.getByTestId('forwarded-from');
    expect(card.textContent).not.toContain('#general');
    expect(card.textContent).toContain('Bob');
    expect(within(card).queryByRole('button', { name: 'Go to original' })).toBeNull();
  });
});

describe('forward targets', () => {
  it('are the text panels I may post in and my DMs, found by name', () => {
    const g = group({
      panels: [panel(1), panel(2, { postingRole: 'admin' }), panel(3, { type: 'voice' }), panel(4, { name: 'dev' })],
    });
    const dm = { id: 'd'.repeat(24), memberIds: [alice.id, bob.id] };
    const state = { groups: { [GROUP_ID]: g }, dms: { [dm.id]: dm } as never, users };
    expect(forwardTargets(state, alice.id, '').map((t) => t.label)).toEqual(['#dev · Team', '#general · Team', 'Bob']);
    expect(forwardTargets(state, alice.id, 'DEV').map((t) => t.label)).toEqual(['#dev · Team']);
    const muted = { [GROUP_ID]: { ...g, myMutedUntil: new Date(Date.now() + 60_000).toISOString() } };
    expect(forwardTargets({ ...state, groups: muted }, alice.id, '').map((t) => t.label)).toEqual(['Bob']);
  });
});

describe('@handle', () => {
  const devs = { id: 'u'.repeat(24), groupId: GROUP_ID, handle: 'devs', name: 'Developers', memberIds: [alice.id] };

  it('is offered in the composer beside the members', () => {
    const offered = mentionCandidates([bob, ...userGroupMentions([devs])], 'de', alice.id);
    expect(offered.map((u) => u.username)).toEqual(['devs']);
  });

  it('is shown as a mention, and a message that mentions me through it is highlighted', () => {
    setState({ me: alice, users, groups: { [GROUP_ID]: group() } });
    useUserGroups.setState({ byGroup: { [GROUP_ID]: [devs] }, asked: { [GROUP_ID]: true } });
    show([{ ...message(1, bob, '@devs look'), converseId: ORIGIN_CONVERSE, mentions: [alice.id] }]);
    const article = screen.getByTestId('message');
    expect(article.className).toContain('mentions-me');
    expect(within(article).getByText('@devs').className).toContain('mention');
  });
});
