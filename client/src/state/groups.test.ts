import type { Group } from '@im/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { alice, bob } from '../test/fixtures.ts';
import { applyMemberUpdate, updateGroup } from './groups.ts';
import { getState, initialState, setState } from './store.ts';

const GROUP = 'g'.repeat(24);
const group: Group = { id: GROUP, name: 'Team', ownerId: bob.id, panels: [], memberCount: 2, myRole: 'member' };
const UNTIL = '2026-03-01T10:10:00.000Z';

function start() {
  setState({
    me: alice,
    groups: { [GROUP]: group },
    groupOrder: [GROUP],
    members: {
      [GROUP]: {
        items: [
          { user: alice, role: 'member', joinedAt: UNTIL },
          { user: bob, role: 'owner', joinedAt: UNTIL },
        ],
        nextCursor: null,
        loading: false,
      },
    },
  });
}

afterEach(() => setState(initialState()));

describe('member:updated', () => {
  it('mutes me in the group and in the member list, and an event without mutedUntil lifts it', () => {
    start();
    applyMemberUpdate(GROUP, alice.id, 'member', UNTIL);
    expect(getState().groups[GROUP]!.myMutedUntil).toBe(UNTIL);
    expect(getState().members[GROUP]!.items[0]!.mutedUntil).toBe(UNTIL);
    applyMemberUpdate(GROUP, alice.id, 'admin');
    expect(getState().groups[GROUP]).toEqual({ ...group, myRole: 'admin' });
    expect(getState().members[GROUP]!.items[0]).toEqual({ user: alice, role: 'admin', joinedAt: UNTIL });
  });

  it("changes someone else's entry without touching my group", () => {
    start();
    applyMemberUpdate(GROUP, bob.id, 'owner', UNTIL);
    expect(getState().groups[GROUP]).toEqual(group);
    expect(getState().members[GROUP]!.items[1]!.mutedUntil).toBe(UNTIL);
  });

  it('keeps my mute when a group:updated event (which has none) arrives', () => {
    start();
    applyMemberUpdate(GROUP, alice.id, 'member', UNTIL);
    const { myRole: _r, myMutedUntil: _m, ...info } = group;
    updateGroup({ ...info, name: 'Renamed' });
    expect(getState().groups[GROUP]).toMatchObject({ name: 'Renamed', myRole: 'member', myMutedUntil: UNTIL });
  });
});
