import type { AuditEntry } from '@im/protocol';
import { describe, expect, it } from 'vitest';
import { auditSentence, formatDuration, type AuditNames } from './audit-text.ts';

const names: AuditNames = {
  user: (id, fallback) => ({ a: 'alice', b: 'bob', c: 'carol' })[id] ?? fallback ?? 'someone',
  when: (iso) => `<${iso}>`,
};

function entry(action: AuditEntry['action'], details: Record<string, unknown> = {}, target?: AuditEntry['target']) {
  return {
    id: 'e1',
    at: '2026-03-01T10:00:00.000Z',
    actorId: 'a',
    action,
    target: target ?? { type: 'member', id: 'b' },
    details,
  } satisfies AuditEntry;
}

describe('auditSentence', () => {
  it('says who banned whom and why, and leaves out an empty reason', () => {
    expect(auditSentence(entry('member.ban', { reason: 'spam' }), names)).toBe('alice banned bob: spam');
    expect(auditSentence(entry('member.ban', { reason: '' }), names)).toBe('alice banned bob');
    expect(auditSentence(entry('member.unban'), names)).toBe('alice unbanned bob');
  });

  it('gives a mute its end, from a time or from a length', () => {
    expect(auditSentence(entry('member.mute', { until: '2026-03-01T11:00:00.000Z' }), names)).toBe(
      'alice muted bob until <2026-03-01T11:00:00.000Z>',
    );
    expect(auditSentence(entry('member.mute', { seconds: 600 }), names)).toBe('alice muted bob for 10 minutes');
    expect(auditSentence(entry('member.unmute'), names)).toBe('alice unmuted bob');
  });

  it('names roles, kicks, deletions and report outcomes', () => {
    expect(auditSentence(entry('member.role', { from: 'member', to: 'admin' }), names)).toBe('alice made bob an admin');
    expect(auditSentence(entry('member.role', { from: 'admin', to: 'member' }), names)).toBe('alice made bob a member');
    expect(auditSentence(entry('member.roleGive', { role: 'Mods' }), names)).toBe('alice gave bob the role Mods');
    expect(auditSentence(entry('member.roleTake', { role: 'Mods' }), names)).toBe('alice took the role Mods from bob');
    expect(auditSentence(entry('role.create', { name: 'Mods' }), names)).toBe('alice made the role Mods');
    expect(auditSentence(entry('role.delete', { name: 'Mods' }), names)).toBe('alice deleted the role Mods');
    expect(auditSentence(entry('member.kick'), names)).toBe('alice removed bob from the group');
    expect(auditSentence(entry('message.delete', { authorId: 'c' }, { type: 'message', id: 'm1' }), names)).toBe(
      'alice deleted a message by carol',
    );
    const report = { type: 'report', id: 'r1' } as const;
    expect(
      auditSentence(entry('report.resolve', { outcome: 'deleted', authorId: 'b', reason: 'spam' }, report), names),
    ).toBe('alice deleted a reported message by bob (spam)');
    expect(auditSentence(entry('report.resolve', { outcome: 'dismissed', authorId: 'c' }, report), names)).toBe(
      "alice dismissed a report of carol's message",
    );
    expect(auditSentence(entry('invite.revoke', {}, { type: 'invite', id: 'XyZ12' }), names)).toBe(
      'alice revoked the invite XyZ12',
    );
  });

  it('describes panels and server-wide actions', () => {
    const panel = { type: 'panel', id: 'p1' } as const;
    expect(auditSentence(entry('panel.update', { name: 'news', postingRole: 'admin' }, panel), names)).toBe(
      'alice changed the panel #news: only admins can post',
    );
    expect(auditSentence(entry('panel.delete', {}, panel), names)).toBe('alice deleted a panel');
    const user = { type: 'user', id: 'c' } as const;
    expect(auditSentence(entry('user.deactivate', {}, user), names)).toBe("alice deactivated carol's account");
    const gone = { type: 'user', id: 'zz' } as const;
    expect(auditSentence(entry('user.deactivate', { username: 'dave' }, gone), names)).toBe(
      "alice deactivated dave's account",
    );
    expect(auditSentence(entry('user.activate', {}, user), names)).toBe("alice reactivated carol's account");
    expect(auditSentence(entry('user.resetLink', { username: 'carol' }, user), names)).toBe(
      'alice made a password reset link for carol',
    );
    expect(auditSentence(entry('user.claimLink', { username: 'carol' }, user), names)).toBe(
      'alice made a claim link for the imported account carol',
    );
    expect(auditSentence(entry('user.claim', { username: 'carol', importedAs: 'cj' }, user), names)).toBe(
      'alice claimed the imported account @cj',
    );
    expect(auditSentence(entry('user.claim', { username: 'carol' }, user), names)).toBe(
      'alice claimed an imported account',
    );
    expect(
      auditSentence(
        entry('settings.update', { registration: 'invite' }, { type: 'settings', id: 'registration' }),
        names,
      ),
    ).toBe('alice set registration to invite only');
  });

  it('still says who did what for an action this client does not know', () => {
    const unknown = { ...entry('member.ban'), action: 'group.archive' } as unknown as AuditEntry;
    expect(auditSentence(unknown, names)).toBe('alice: group.archive member b');
  });
});

describe('formatDuration', () => {
  it('uses the largest whole unit', () => {
    expect(formatDuration(600)).toBe('10 minutes');
    expect(formatDuration(3600)).toBe('1 hour');
    expect(formatDuration(86_400)).toBe('1 day');
    expect(formatDuration(7 * 86_400)).toBe('7 days');
    expect(formatDuration(90)).toBe('90 seconds');
  });
});
