import { describe, expect, it } from 'vitest';
import { alice, bob, group, panel, users } from '../test/fixtures.ts';
import { placeTitle, titleWithCount } from './title.ts';

const general = panel(1);
const state = {
  me: alice,
  users,
  groups: { [group().id]: group({ panels: [general] }) },
  dms: { ['e'.repeat(24)]: { id: 'e'.repeat(24), type: 'dm' as const, memberIds: [alice.id, bob.id] } },
};

describe('the tab title', () => {
  it('names the panel and its group in a panel, the other person in a DM, the app alone elsewhere', () => {
    const inPanel = placeTitle('Chat', {
      ...state,
      route: { name: 'group', groupId: group().id, converseId: general.converseId },
    });
    expect(inPanel).toBe('#general · Team · Chat');
    expect(titleWithCount(inPanel, 3)).toBe('(3) #general · Team · Chat');
    expect(placeTitle('Chat', { ...state, route: { name: 'dm', converseId: 'e'.repeat(24) } })).toBe('Bob · Chat');
    expect(placeTitle('Chat', { ...state, route: { name: 'explore' } })).toBe('Chat');
    expect(titleWithCount('Chat', 1234)).toBe('(1,234) Chat');
  });
});
