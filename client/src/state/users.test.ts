import { afterEach, describe, expect, it } from 'vitest';
import { alice, bob, GROUP_ID } from '../test/fixtures.ts';
import { getState, initialState, setState } from './store.ts';
import { applyUserUpdated, displayName } from './users.ts';

const JOINED = '2026-03-01T10:10:00.000Z';

afterEach(() => setState(initialState()));

describe('user:updated', () => {
  it("puts someone's new name everywhere they are shown, and leaves the others alone", () => {
    setState({
      me: alice,
      users: { [alice.id]: alice, [bob.id]: bob },
      members: {
        [GROUP_ID]: {
          items: [
            { user: alice, role: 'owner', roleIds: [], joinedAt: JOINED },
            { user: bob, role: 'member', roleIds: [], joinedAt: JOINED },
          ],
          nextCursor: null,
          loading: false,
        },
      },
    });
    applyUserUpdated({ ...bob, nickname: 'Robert' });
    const s = getState();
    expect(displayName(s.users[bob.id])).toBe('Robert');
    expect(s.members[GROUP_ID]!.items.map((m) => displayName(m.user))).toEqual([displayName(alice), 'Robert']);
    expect(s.me).toBe(alice);
  });

  it('renames me in my own bar too', () => {
    setState({ me: alice, users: { [alice.id]: alice } });
    applyUserUpdated({ ...alice, nickname: 'Ally' });
    expect(getState().me?.nickname).toBe('Ally');
  });
});
