import type { shell as en } from '../en/shell.ts';

export const shell: Record<keyof typeof en, string> = {
  'shell.confirm.title': 'Bist du sicher?',
  'shell.confirm.remove': 'Entfernen',
  'shell.confirm.leave': 'Verlassen',
  'shell.confirm.deactivate': 'Deaktivieren',
  'shell.confirm.cancelMessage': 'Nachricht verwerfen',
  'shell.confirm.deactivateUser': '@{username} deaktivieren? Alle Sitzungen enden sofort.',
  'shell.confirm.cancelScheduled': 'Diese geplante Nachricht verwerfen?',
  'shell.confirm.deleteMessage': 'Diese Nachricht löschen?',
  'shell.confirm.removeMember': '{name} aus {group} entfernen?',
  'shell.confirm.deleteRole': 'Die Rolle {name} löschen? Ihre Mitglieder verlieren sie.',
  'shell.confirm.removeEmoji': ':{name}: entfernen?',
  'shell.confirm.deleteUserGroup': '@{handle} löschen?',
  'shell.confirm.deleteGroup': '{name} für alle löschen?',
  'shell.confirm.leaveGroup': '{name} verlassen?',
  'shell.confirm.deletePanel': '#{name} mit allen Nachrichten löschen?',
  'shell.notice.panelDeleted': '#{name} wurde gelöscht.',
  'shell.notice.groupDeleted': '{name} wurde gelöscht.',
  'shell.notice.removed': 'Du wurdest aus {name} entfernt.',
};
