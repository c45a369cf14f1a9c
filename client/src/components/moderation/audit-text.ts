import type { AuditEntry } from '@im/protocol';

/** How an audit line names people and times. */
export interface AuditNames {
  /** A user's name; `fallback` (a name the entry recorded) when the user is not known. */
  user(id: string, fallback?: string): string;
  when(iso: string): string;
}

const REGISTRATION: Record<string, string> = { open: 'open', invite: 'invite only', closed: 'closed' };

/** A plain sentence for one audit entry, e.g. "alice banned bob: spam". */
export function auditSentence(entry: AuditEntry, names: AuditNames): string {
  const actor = names.user(entry.actorId);
  const d = entry.details;
  const target =
    entry.target.type === 'user' || entry.target.type === 'member'
      ? names.user(entry.target.id, text(d, 'username'))
      : '';
  const reason = text(d, 'reason');
  const because = reason ? `: ${reason}` : '';
  switch (entry.action) {
    case 'user.deactivate':
      return `${actor} deactivated ${target}'s account${because}`;
    case 'user.activate':
      return `${actor} reactivated ${target}'s account`;
    case 'user.resetLink':
      return `${actor} made a password reset link for ${target}`;
    case 'user.claimLink':
      return `${actor} made a claim link for the imported account ${target}`;
    case 'user.claim': {
      const importedAs = text(d, 'importedAs');
      return importedAs
        ? `${actor} claimed the imported account @${importedAs}`
        : `${actor} claimed an imported account`;
    }
    case 'settings.update': {
      const mode = text(d, 'to') ?? text(d, 'registration');
      return mode
        ? `${actor} set registration to ${REGISTRATION[mode] ?? mode}`
        : `${actor} changed the server settings`;
    }
    case 'group.delete': {
      const name = text(d, 'name');
      return name ? `${actor} deleted the group ${name}` : `${actor} deleted the group`;
    }
    case 'panel.delete':
      return `${actor} deleted ${panelName(d)}`;
    case 'panel.update':
      return `${actor} changed ${panelName(d)}${postingChange(d)}`;
    case 'member.kick':
      return `${actor} removed ${target} from the group${because}`;
    case 'member.role':
      return (text(d, 'to') ?? text(d, 'role')) === 'admin'
        ? `${actor} made ${target} an admin`
        : `${actor} made ${target} a member`;
    case 'member.roleGive':
      return `${actor} gave ${target} the role ${text(d, 'role') ?? 'a role'}`;
    case 'member.roleTake':
      return `${actor} took the role ${text(d, 'role') ?? 'a role'} from ${target}`;
    case 'role.create':
      return `${actor} made the role ${text(d, 'name') ?? ''}`.trimEnd();
    case 'role.update':
      return `${actor} changed the role ${text(d, 'name') ?? ''}`.trimEnd();
    case 'role.delete':
      return `${actor} deleted the role ${text(d, 'name') ?? ''}`.trimEnd();
    case 'usergroup.create':
      return `${actor} made the user group @${text(d, 'handle') ?? ''}`;
    case 'usergroup.update':
      return `${actor} changed the user group @${text(d, 'handle') ?? ''}`;
    case 'usergroup.delete':
      return `${actor} deleted the user group @${text(d, 'handle') ?? ''}`;
    case 'member.ban':
      return `${actor} banned ${target}${because}`;
    case 'member.unban':
      return `${actor} unbanned ${target}`;
    case 'member.mute':
      return `${actor} muted ${target}${muteEnd(d, names)}`;
    case 'member.unmute':
      return `${actor} unmuted ${target}`;
    case 'invite.revoke':
      return `${actor} revoked the invite ${entry.target.id}`;
    case 'message.delete': {
      const author = text(d, 'authorId');
      return author ? `${actor} deleted a message by ${names.user(author)}` : `${actor} deleted a message`;
    }
    case 'report.resolve': {
      // The report's own reason, not one given by the moderator.
      const author = text(d, 'authorId');
      const of = author ? ` of ${names.user(author)}'s message` : '';
      const why = reason ? ` (${reason})` : '';
      const outcome = text(d, 'outcome') ?? text(d, 'action');
      return outcome === 'deleted' || outcome === 'delete'
        ? `${actor} deleted a reported message${author ? ` by ${names.user(author)}` : ''}${why}`
        : `${actor} dismissed a report${of}${why}`;
    }
    default:
      // An action newer than this client: still say who did what.
      return `${actor}: ${String(entry.action)} ${entry.target.type} ${entry.target.id}`;
  }
}

function text(details: Record<string, unknown>, key: string): string | undefined {
  const value = details[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function panelName(details: Record<string, unknown>): string {
  const name = text(details, 'name');
  return name ? `the panel #${name}` : 'a panel';
}

function postingChange(details: Record<string, unknown>): string {
  const role = text(details, 'postingRole');
  if (role === 'admin') return ': only admins can post';
  if (role === 'member') return ': everyone can post';
  return '';
}

function muteEnd(details: Record<string, unknown>, names: AuditNames): string {
  const until = text(details, 'until') ?? text(details, 'mutedUntil');
  if (until) return ` until ${names.when(until)}`;
  const seconds = details.seconds;
  return typeof seconds === 'number' && seconds > 0 ? ` for ${formatDuration(seconds)}` : '';
}

/** "10 minutes", "1 hour", "7 days": the largest whole unit. */
export function formatDuration(seconds: number): string {
  const units: Array<[number, string]> = [
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} seconds`;
}
