import type { Group } from '@im/protocol';
import { mayManageGroup } from '../../../state/group-icon.ts';
import { groupAudit } from '../../../state/moderation.ts';
import { Dialog } from '../../common/Dialog.tsx';
import { Tabs } from '../../common/Tabs.tsx';
import { AuditLog } from '../../moderation/AuditLog.tsx';
import { hasPermission } from '../../../state/permissions.ts';
import { BansTab } from './BansTab.tsx';
import { EmojiTab } from './EmojiTab.tsx';
import { IconTab } from './IconTab.tsx';
import { IntegrationsTab } from './integrations/IntegrationsTab.tsx';
import { InvitesTab } from './InvitesTab.tsx';
import { MembersTab } from './MembersTab.tsx';
import { ReportsTab } from './ReportsTab.tsx';
import { RolesTab } from './RolesTab.tsx';
import { VisibilityTab } from './VisibilityTab.tsx';

export type GroupSettingsTab =
  'members' | 'roles' | 'bans' | 'invites' | 'visibility' | 'icon' | 'emoji' | 'integrations' | 'reports' | 'audit';

/** Whether I may open a group's settings: owner and admins, and holders of `manageRoles` (for its Roles tab). */
export function canOpenGroupSettings(group: Group): boolean {
  return group.myRole !== 'member' || hasPermission(group, 'manageRoles');
}

/**
 * A group's settings, for its owner and admins: members, roles, bans, invites,
 * who can find and join it (public or private) with its description, its
 * icon, its integrations (bots, webhooks, slash commands), reports and the
 * audit log. A member who may manage roles sees the members and the roles only.
 */
export function GroupSettingsDialog(props: { group: Group; initialTab?: GroupSettingsTab; onClose: () => void }) {
  const { group } = props;
  const admin = group.myRole !== 'member';
  const members = { id: 'members', label: 'Members', render: () => <MembersTab group={group} /> };
  const roles = hasPermission(group, 'manageRoles')
    ? [{ id: 'roles', label: 'Roles', render: () => <RolesTab group={group} /> }]
    : [];
  if (!admin) {
    return (
      <Dialog title={`${group.name} settings`} onClose={props.onClose} wide>
        <Tabs label="Group settings" initial={props.initialTab} tabs={[members, ...roles]} />
      </Dialog>
    );
  }
  return (
    <Dialog title={`${group.name} settings`} onClose={props.onClose} wide>
      <Tabs
        label="Group settings"
        initial={props.initialTab}
        tabs={[
          members,
          ...roles,
          { id: 'bans', label: 'Bans', render: () => <BansTab groupId={group.id} /> },
          { id: 'invites', label: 'Invites', render: () => <InvitesTab groupId={group.id} /> },
          { id: 'visibility', label: 'Visibility', render: () => <VisibilityTab group={group} /> },
          ...(mayManageGroup(group) ? [{ id: 'icon', label: 'Icon', render: () => <IconTab group={group} /> }] : []),
          { id: 'emoji', label: 'Emoji', render: () => <EmojiTab group={group} /> },
          { id: 'integrations', label: 'Integrations', render: () => <IntegrationsTab group={group} /> },
          { id: 'reports', label: 'Reports', render: () => <ReportsTab groupId={group.id} /> },
          {
            id: 'audit',
            label: 'Audit log',
            render: () => <AuditLog load={(cursor) => groupAudit(group.id, cursor)} />,
          },
        ]}
      />
    </Dialog>
  );
}
