import { useTranslation } from 'react-i18next';
import type { Group, Permission } from '@im/protocol';
import { groupAudit } from '../../../state/moderation.ts';
import { Dialog } from '../../common/Dialog.tsx';
import { Tabs, type Tab } from '../../common/Tabs.tsx';
import { AuditLog } from '../../moderation/AuditLog.tsx';
import { hasPermission } from '../../../state/permissions.ts';
import { BansTab } from './BansTab.tsx';
import { EmojiTab } from './EmojiTab.tsx';
import { ExportTab } from './ExportTab.tsx';
import { IconTab } from './IconTab.tsx';
import { IntegrationsTab } from './integrations/IntegrationsTab.tsx';
import { InvitesTab } from './InvitesTab.tsx';
import { MembersTab } from './MembersTab.tsx';
import { ReportsTab } from './ReportsTab.tsx';
import { RolesTab } from './RolesTab.tsx';
import { UserGroupsTab } from './UserGroupsTab.tsx';
import { VisibilityTab } from './VisibilityTab.tsx';

export type GroupSettingsTab =
  | 'members'
  | 'roles'
  | 'user-groups'
  | 'bans'
  | 'invites'
  | 'visibility'
  | 'icon'
  | 'emoji'
  | 'integrations'
  | 'reports'
  | 'audit'
  | 'export';

/** What a member (not owner or admin) may open group settings for: each gives a tab (or acts in Members). */
const SETTINGS_PERMISSIONS: Permission[] = [
  'manageRoles',
  'manageGroup',
  'banMembers',
  'kickMembers',
  'muteMembers',
  'manageIntegrations',
  'manageMessages',
  'viewAuditLog',
  'mentionAll',
];

/** Whether I may open a group's settings: owner and admins, and members holding a permission it serves. */
export function canOpenGroupSettings(group: Group): boolean {
  return SETTINGS_PERMISSIONS.some((p) => hasPermission(group, p));
}

/**
 * A group's settings: members, roles, bans, invites, who can find and join it
 * (public or private) with its description, its icon, its integrations (bots,
 * webhooks, slash commands), reports and the audit log. Each tab shows to the
 * holders of the permission it needs (owner and admins hold them all).
 */
export function GroupSettingsDialog(props: { group: Group; initialTab?: GroupSettingsTab; onClose: () => void }) {
  const { t } = useTranslation();
  const { group } = props;
  const when = (allowed: boolean, tab: Tab) => (allowed ? [tab] : []);
  return (
    <Dialog title={t('shell.groupSettings.title', { name: group.name })} onClose={props.onClose} wide>
      <Tabs
        label={t('shell.sidebar.groupSettings')}
        initial={props.initialTab}
        tabs={[
          { id: 'members', label: t('shell.groupSettings.members'), render: () => <MembersTab group={group} /> },
          ...when(hasPermission(group, 'manageRoles'), {
            id: 'roles',
            label: t('shell.groupSettings.roles'),
            render: () => <RolesTab group={group} />,
          }),
          ...when(hasPermission(group, 'mentionAll'), {
            id: 'user-groups',
            label: t('shell.groupSettings.userGroups'),
            render: () => <UserGroupsTab group={group} />,
          }),
          ...when(hasPermission(group, 'banMembers'), {
            id: 'bans',
            label: t('shell.groupSettings.bans'),
            render: () => <BansTab groupId={group.id} />,
          }),
          ...when(hasPermission(group, 'manageGroup'), {
            id: 'invites',
            label: t('shell.groupSettings.invites'),
            render: () => <InvitesTab groupId={group.id} />,
          }),
          ...when(hasPermission(group, 'manageGroup'), {
            id: 'visibility',
            label: t('shell.groupSettings.visibility'),
            render: () => <VisibilityTab group={group} />,
          }),
          ...when(hasPermission(group, 'manageGroup'), {
            id: 'icon',
            label: t('shell.groupSettings.icon'),
            render: () => <IconTab group={group} />,
          }),
          ...when(hasPermission(group, 'manageGroup'), {
            id: 'emoji',
            label: t('shell.groupSettings.emoji'),
            render: () => <EmojiTab group={group} />,
          }),
          ...when(hasPermission(group, 'manageIntegrations'), {
            id: 'integrations',
            label: t('shell.groupSettings.integrations'),
            render: () => <IntegrationsTab group={group} />,
          }),
          ...when(hasPermission(group, 'manageMessages'), {
            id: 'reports',
            label: t('shell.groupSettings.reports'),
            render: () => <ReportsTab groupId={group.id} />,
          }),
          ...when(group.myRole === 'owner', {
            id: 'export',
            label: t('shell.groupSettings.export'),
            render: () => <ExportTab group={group} />,
          }),
          ...when(hasPermission(group, 'viewAuditLog'), {
            id: 'audit',
            label: t('shell.groupSettings.audit'),
            render: () => <AuditLog load={(cursor) => groupAudit(group.id, cursor)} />,
          }),
        ]}
      />
    </Dialog>
  );
}
