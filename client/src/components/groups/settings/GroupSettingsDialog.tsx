import type { Group } from '@im/protocol';
import { mayManageGroup } from '../../../state/group-icon.ts';
import { groupAudit } from '../../../state/moderation.ts';
import { Dialog } from '../../common/Dialog.tsx';
import { Tabs } from '../../common/Tabs.tsx';
import { AuditLog } from '../../moderation/AuditLog.tsx';
import { BansTab } from './BansTab.tsx';
import { EmojiTab } from './EmojiTab.tsx';
import { IconTab } from './IconTab.tsx';
import { IntegrationsTab } from './integrations/IntegrationsTab.tsx';
import { InvitesTab } from './InvitesTab.tsx';
import { MembersTab } from './MembersTab.tsx';
import { ReportsTab } from './ReportsTab.tsx';
import { VisibilityTab } from './VisibilityTab.tsx';

export type GroupSettingsTab =
  'members' | 'bans' | 'invites' | 'visibility' | 'icon' | 'emoji' | 'integrations' | 'reports' | 'audit';

/**
 * A group's settings, for its owner and admins: members, bans, invites, who can
 * find and join it (public or private) with its description, its icon, its integrations
 * (bots, webhooks, slash commands), reports and the audit log.
 */
export function GroupSettingsDialog(props: { group: Group; initialTab?: GroupSettingsTab; onClose: () => void }) {
  const { group } = props;
  return (
    <Dialog title={`${group.name} settings`} onClose={props.onClose} wide>
      <Tabs
        label="Group settings"
        initial={props.initialTab}
        tabs={[
          { id: 'members', label: 'Members', render: () => <MembersTab group={group} /> },
          { id: 'bans', label: 'Bans', render: () => <BansTab groupId={group.id} /> },
          { id: 'invites', label: 'Invites', render: () => <InvitesTab groupId={group.id} /> },
          { id: 'visibility', label: 'Visibility', render: () => <VisibilityTab group={group} /> },
          ...(mayManageGroup(group) ? [{ id: 'icon', label: 'Icon', render: () => <IconTab group={group} /> }] : []),
          { id: 'emoji', label: 'Emoji', render: () => <EmojiTab group={group} /> },
          ...(group.myRole === 'member'
            ? []
            : [{ id: 'integrations', label: 'Integrations', render: () => <IntegrationsTab group={group} /> }]),
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
