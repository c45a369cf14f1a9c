import type { Group } from '@im/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { alice, bob, group as groupFixture, GROUP_ID, panel } from '../test/fixtures.ts';
import { applyMemberJoined, applyMemberUpdate, updateGroup } from './groups.ts';
import { getState, initialState, setState } from './store.ts';

const GROUP = GROUP_ID;
const group: Group = groupFixture({ panels: [] });
const UNTIL = '2026-03-01T10:10:00.000Z';

function start() {
  setState({
    me: alice,
    groups: { [GROUP]: group },
    groupOrder: [GROUP],
    members: {
      [GROUP]: {
        items: [
          { user: alice, role: 'member', roleIds: [], joinedAt: UNTIL },
          { user: bob, role: 'owner', roleIds: [], joinedAt: UNTIL },
        ],
        nextCursor: null,
        loading: false,
      },
    },
  });
}

afterEach(() => setState(initialState()));

describe('member:joined', () => {
  it('counts someone else joining, and lists them', () => {
    start();
    const before = getState().groups[GROUP]!.memberCount;
    const carol = { ...bob, id: 'c'.repeat(24), username: 'carol', nickname: 'Carol' };
    setState((s) => ({ users: { ...s.users, [carol.id]: carol } }));
    applyMemberJoined(GROUP, carol.id, 'member');
    expect(getState().groups[GROUP]!.memberCount).toBe(before + 1);
    expect(getState().members[GROUP]!.items.map((m) => m.user.id)).toContain(carol.id);
  });

  it('does not count me twice when my own join (already answered with the group) is announced', () => {
    start();
    const before = getState().groups[GROUP]!.memberCount;
    applyMemberJoined(GROUP, alice.id, 'member');
    expect(getState().groups[GROUP]!.memberCount).toBe(before);
  });
});

describe('member:updated', () => {
  it('mutes me in the group and in the member list, and an event without mutedUntil lifts it', () => {
    start();
    applyMemberUpdate(GROUP, alice.id, 'member', UNTIL);
    expect(getState().groups[GROUP]!.myMutedUntil).toBe(UNTIL);
    expect(getState().members[GROUP]!.items[0]!.mutedUntil).toBe(UNTIL);
    applyMemberUpdate(GROUP, alice.id, 'admin');
    expect(getState().groups[GROUP]).toEqual({ ...group, myRole: 'admin' });
    expect(getState().members[GROUP]!.items[0]).toEqual({ user: alice, role: 'admin', roleIds: [], joinedAt: UNTIL });
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

describe('group:updated and panel changes', () => {
  it('takes the visibility, description and panels of the event, keeping my role', () => {
    start();
    const { myRole: _r, ...info } = groupFixture({ panels: [panel(1, { webPublic: true })] });
    updateGroup({ ...info, visibility: 'public', description: 'Seeds and soil' });
    expect(getState().groups[GROUP]).toMatchObject({
      visibility: 'public',
      description: 'Seeds and soil',
      myRole: 'member',
      panels: [{ id: panel(1).id, webPublic: true }],
    });
  });

  it('drops a cleared description, and a group made private brings its panels off the web', () => {
    start();
    setState({
      groups: {
        [GROUP]: groupFixture({ visibility: 'public', description: 'x', panels: [panel(1, { webPublic: true })] }),
      },
    });
    const { myRole: _r, description: _d, ...info } = groupFixture({ panels: [panel(1)] });
    updateGroup(info);
    const held = getState().groups[GROUP]!;
    expect(held.description).toBeUndefined();
    expect(held.visibility).toBe('private');
    expect(held.panels[0]!.webPublic).toBe(false);
  });

  it('ignores an event for a group I am not in', () => {
    start();
    const { myRole: _r, ...info } = groupFixture({ id: 'x'.repeat(24) });
    updateGroup(info);
    expect(Object.keys(getState().groups)).toEqual([GROUP]);
  });
});
