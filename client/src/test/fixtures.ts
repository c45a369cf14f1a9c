import type { Group, Message, Panel, PublicUser } from '@im/protocol';

export const alice: PublicUser = {
  id: 'a'.repeat(24),
  username: 'alice',
  nickname: 'Alice',
  createdAt: '2026-01-01T00:00:00.000Z',
};
export const bob: PublicUser = {
  id: 'b'.repeat(24),
  username: 'bob',
  nickname: 'Bob',
  createdAt: '2026-01-01T00:00:00.000Z',
};
export const alex: PublicUser = {
  id: 'c'.repeat(24),
  username: 'alex',
  nickname: 'Alexandra',
  createdAt: '2026-01-01T00:00:00.000Z',
};
export const users: Record<string, PublicUser> = { [alice.id]: alice, [bob.id]: bob, [alex.id]: alex };

const CONVERSE = 'd'.repeat(24);

/** A message of `seq` by `author`, a minute after the previous seq unless `at` is given. */
export function message(seq: number, author: PublicUser, content: string, at?: string): Message {
  return {
    id: `m${String(seq).padStart(23, '0')}`,
    converseId: CONVERSE,
    seq,
    authorId: author.id,
    content,
    createdAt: at ?? new Date(Date.UTC(2026, 10, 20, 9, 0) + seq * 60_000).toISOString(),
    reactions: [],
    mentions: [],
    attachments: [],
  };
}

export const GROUP_ID = 'g'.repeat(24);

/** A text panel of the test group: anyone posts, not on the web, unless `change` says otherwise. */
export function panel(n: number, change: Partial<Panel> = {}): Panel {
  return {
    id: `p${String(n).padStart(23, '0')}`,
    name: n === 1 ? 'general' : `panel-${n}`,
    type: 'text',
    converseId: `c${String(n).padStart(23, '0')}`,
    postingRole: 'member',
    webPublic: false,
    private: false,
    ...change,
  };
}

/** Bob's private group "Team" with one panel, seen by Alice as a member unless `change` says otherwise. */
export function group(change: Partial<Group> = {}): Group {
  return {
    id: GROUP_ID,
    name: 'Team',
    ownerId: bob.id,
    panels: [panel(1)],
    language: 'en',
    memberCount: 2,
    visibility: 'private',
    myRole: 'member',
    myRoleIds: [],
    myPermissions: [],
    ...change,
  };
}
