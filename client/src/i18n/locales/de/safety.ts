// Sicherheit: Benutzer blockieren und das Prüfprotokoll.
import type { safety as english } from '../en/safety.ts';

export const safety: Record<keyof typeof english, string> = {
  'safety.block': 'Blockieren',
  'safety.unblock': 'Blockierung aufheben',
  'safety.blockedHint':
    'Blockiert: keine Direktnachrichten zwischen euch, und die Nachrichten dieser Person werden eingeklappt. Sie erfährt davon nichts.',
  'safety.blockedMessage': 'Nachricht von einem blockierten Benutzer.',
  'safety.showMessage': 'Anzeigen',
  'safety.blockedUsers.title': 'Blockierte Benutzer',
  'safety.blockedUsers.none': 'Du hast niemanden blockiert.',
  'safety.blockedUsers.someone': 'Jemand',
  'safety.blockedUsers.since': '@{username} · blockiert am {at, date, medium}',
  'safety.audit.label': 'Prüfprotokoll',
  'safety.audit.empty': 'Noch nichts aufgezeichnet.',
  'safety.audit.loadMore': 'Mehr laden',
  'safety.audit.someone': 'jemand',
  'safety.audit.inGroup': 'in {group}',
  'safety.audit.userDeactivate':
    '{actor} hat das Konto von {target} deaktiviert{because, select, yes {: {reason}} other {}}',
  'safety.audit.userActivate': '{actor} hat das Konto von {target} wieder aktiviert',
  'safety.audit.userResetLink': '{actor} hat einen Link zum Zurücksetzen des Passworts für {target} erstellt',
  'safety.audit.userClaimLink': '{actor} hat einen Übernahme-Link für das importierte Konto {target} erstellt',
  'safety.audit.userClaim':
    '{actor} hat {hasImportedAs, select, yes {das importierte Konto @{importedAs}} other {ein importiertes Konto}} übernommen',
  'safety.audit.registration':
    '{actor} hat die Registrierung auf {mode, select, open {offen} invite {nur mit Einladung} closed {geschlossen} other {{mode}}} gestellt',
  'safety.audit.settings': '{actor} hat die Servereinstellungen geändert',
  'safety.audit.groupDelete': '{actor} hat die Gruppe{hasName, select, yes { {name}} other {}} gelöscht',
  'safety.audit.panelDelete': '{actor} hat {hasName, select, yes {den Bereich #{name}} other {einen Bereich}} gelöscht',
  'safety.audit.panelUpdate':
    '{actor} hat {hasName, select, yes {den Bereich #{name}} other {einen Bereich}} geändert{posting, select, admin {: nur Admins können schreiben} member {: alle können schreiben} other {}}',
  'safety.audit.memberKick': '{actor} hat {target} aus der Gruppe entfernt{because, select, yes {: {reason}} other {}}',
  'safety.audit.memberRole':
    '{role, select, admin {{actor} hat {target} zum Admin gemacht} other {{actor} hat {target} zum Mitglied gemacht}}',
  'safety.audit.memberRoleGive':
    '{actor} hat {target} {hasRole, select, yes {die Rolle {role}} other {eine Rolle}} gegeben',
  'safety.audit.memberRoleTake':
    '{actor} hat {target} {hasRole, select, yes {die Rolle {role}} other {eine Rolle}} entzogen',
  'safety.audit.roleCreate': '{actor} hat die Rolle {name} erstellt',
  'safety.audit.roleUpdate': '{actor} hat die Rolle {name} geändert',
  'safety.audit.roleDelete': '{actor} hat die Rolle {name} gelöscht',
  'safety.audit.userGroupCreate': '{actor} hat die Benutzergruppe @{handle} erstellt',
  'safety.audit.userGroupUpdate': '{actor} hat die Benutzergruppe @{handle} geändert',
  'safety.audit.userGroupDelete': '{actor} hat die Benutzergruppe @{handle} gelöscht',
  'safety.audit.memberBan': '{actor} hat {target} gesperrt{because, select, yes {: {reason}} other {}}',
  'safety.audit.memberUnban': '{actor} hat die Sperre von {target} aufgehoben',
  'safety.audit.memberMute': '{actor} hat {target} stummgeschaltet',
  'safety.audit.memberMuteUntil': '{actor} hat {target} bis {until} stummgeschaltet',
  'safety.audit.memberMuteFor': '{actor} hat {target} für {length} stummgeschaltet',
  'safety.audit.memberUnmute': '{actor} hat die Stummschaltung von {target} aufgehoben',
  'safety.audit.inviteRevoke': '{actor} hat die Einladung {code} widerrufen',
  'safety.audit.messageDelete': '{actor} hat eine Nachricht{hasAuthor, select, yes { von {author}} other {}} gelöscht',
  'safety.audit.reportDeleted':
    '{actor} hat eine gemeldete Nachricht{hasAuthor, select, yes { von {author}} other {}} gelöscht{because, select, yes { ({reason})} other {}}',
  'safety.audit.reportDismissed':
    '{actor} hat eine Meldung{hasAuthor, select, yes { zu einer Nachricht von {author}} other {}} abgewiesen{because, select, yes { ({reason})} other {}}',
  'safety.audit.other': '{actor}: {action} {type} {id}',
  'safety.audit.days': '{count, plural, one {# Tag} other {# Tage}}',
  'safety.audit.hours': '{count, plural, one {# Stunde} other {# Stunden}}',
  'safety.audit.minutes': '{count, plural, one {# Minute} other {# Minuten}}',
  'safety.audit.seconds': '{count, plural, one {# Sekunde} other {# Sekunden}}',
};
