import type { AuditEntry } from '@im/protocol';
import { t } from '../../i18n/i18n.ts';

/** How an audit line names people and times. */
export interface AuditNames {
  /** A user's name; `fallback` (a name the entry recorded) when the user is not known. */
  user(id: string, fallback?: string): string;
  when(iso: string): string;
}

/** A plain sentence for one audit entry, e.g. "alice banned bob: spam". */
export function auditSentence(entry: AuditEntry, names: AuditNames): string {
  const actor = names.user(entry.actorId);
  const d = entry.details;
  const target =
    entry.target.type === 'user' || entry.target.type === 'member'
      ? names.user(entry.target.id, text(d, 'username'))
      : '';
  const reason = text(d, 'reason') ?? '';
  const args = { actor, target, reason, because: yes(reason) };
  switch (entry.action) {
    case 'user.deactivate':
      return t('safety.audit.userDeactivate', args);
    case 'user.activate':
      return t('safety.audit.userActivate', args);
    case 'user.resetLink':
      return t('safety.audit.userResetLink', args);
    case 'user.claimLink':
      return t('safety.audit.userClaimLink', args);
    case 'user.claim':
      return t('safety.audit.userClaim', { actor, ...named('importedAs', text(d, 'importedAs')) });
    case 'settings.update': {
      const mode = text(d, 'to') ?? text(d, 'registration');
      return mode ? t('safety.audit.registration', { actor, mode }) : t('safety.audit.settings', { actor });
    }
    case 'group.delete':
      return t('safety.audit.groupDelete', { actor, ...named('name', text(d, 'name')) });
    case 'panel.delete':
      return t('safety.audit.panelDelete', { actor, ...named('name', text(d, 'name')) });
    case 'panel.update':
      return t('safety.audit.panelUpdate', {
        actor,
        ...named('name', text(d, 'name')),
        posting: text(d, 'postingRole') ?? 'unchanged',
      });
    case 'member.kick':
      return t('safety.audit.memberKick', args);
    case 'member.role':
      return t('safety.audit.memberRole', { ...args, role: text(d, 'to') ?? text(d, 'role') ?? 'member' });
    case 'member.roleGive':
      return t('safety.audit.memberRoleGive', { ...args, ...named('role', text(d, 'role')) });
    case 'member.roleTake':
      return t('safety.audit.memberRoleTake', { ...args, ...named('role', text(d, 'role')) });
    case 'role.create':
      return t('safety.audit.roleCreate', { actor, name: text(d, 'name') ?? '' }).trimEnd();
    case 'role.update':
      return t('safety.audit.roleUpdate', { actor, name: text(d, 'name') ?? '' }).trimEnd();
    case 'role.delete':
      return t('safety.audit.roleDelete', { actor, name: text(d, 'name') ?? '' }).trimEnd();
    case 'usergroup.create':
      return t('safety.audit.userGroupCreate', { actor, handle: text(d, 'handle') ?? '' });
    case 'usergroup.update':
      return t('safety.audit.userGroupUpdate', { actor, handle: text(d, 'handle') ?? '' });
    case 'usergroup.delete':
      return t('safety.audit.userGroupDelete', { actor, handle: text(d, 'handle') ?? '' });
    case 'member.ban':
      return t('safety.audit.memberBan', args);
    case 'member.unban':
      return t('safety.audit.memberUnban', args);
    case 'member.mute': {
      const until = text(d, 'until') ?? text(d, 'mutedUntil');
      const seconds = typeof d.seconds === 'number' && d.seconds > 0 ? d.seconds : undefined;
      if (until) return t('safety.audit.memberMuteUntil', { ...args, until: names.when(until) });
      if (seconds) return t('safety.audit.memberMuteFor', { ...args, length: formatDuration(seconds) });
      return t('safety.audit.memberMute', args);
    }
    case 'member.unmute':
      return t('safety.audit.memberUnmute', args);
    case 'invite.revoke':
      return t('safety.audit.inviteRevoke', { actor, code: entry.target.id });
    case 'message.delete': {
      const author = text(d, 'authorId');
      return t('safety.audit.messageDelete', { actor, ...named('author', author && names.user(author)) });
    }
    case 'report.resolve': {
      // The report's own reason, not one given by the moderator.
      const author = text(d, 'authorId');
      const outcome = text(d, 'outcome') ?? text(d, 'action');
      const reported = { actor, ...named('author', author && names.user(author)), reason, because: yes(reason) };
      return outcome === 'deleted' || outcome === 'delete'
        ? t('safety.audit.reportDeleted', reported)
        : t('safety.audit.reportDismissed', reported);
    }
    default:
      // An action newer than this client: still say who did what.
      return t('safety.audit.other', {
        actor,
        action: String(entry.action),
        type: entry.target.type,
        id: entry.target.id,
      });
  }
}

/** ICU selects on a word: whether an optional part is there. */
const yes = (value: string | undefined): 'yes' | 'no' => (value ? 'yes' : 'no');

/** An optional value with its `has…` flag, for a message that says it only when there is one. */
function named(key: string, value: string | undefined): Record<string, string> {
  const flag = `has${key.charAt(0).toUpperCase()}${key.slice(1)}`;
  return { [key]: value ?? '', [flag]: yes(value) };
}

function text(details: Record<string, unknown>, key: string): string | undefined {
  const value = details[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** "10 minutes", "1 hour", "7 days": the largest whole unit. */
export function formatDuration(seconds: number): string {
  if (seconds >= 86_400 && seconds % 86_400 === 0) return t('safety.audit.days', { count: seconds / 86_400 });
  if (seconds >= 3600 && seconds % 3600 === 0) return t('safety.audit.hours', { count: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return t('safety.audit.minutes', { count: seconds / 60 });
  return t('safety.audit.seconds', { count: seconds });
}
