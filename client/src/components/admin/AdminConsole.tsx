import { serverAudit } from '../../state/admin.ts';
import { Dialog } from '../common/Dialog.tsx';
import { Tabs } from '../common/Tabs.tsx';
import { AuditLog } from '../moderation/AuditLog.tsx';
import { ImportTab } from './ImportTab.tsx';
import { RegistrationTab } from './RegistrationTab.tsx';
import { ServerReportsTab } from './ServerReportsTab.tsx';
import { UsersTab } from './UsersTab.tsx';

/** The server admins' console: accounts, registration, reports of DMs and groups, the server's audit log, imports. */
export function AdminConsole(props: { onClose: () => void }) {
  return (
    <Dialog title="Admin console" onClose={props.onClose} wide>
      <Tabs
        label="Admin console"
        tabs={[
          { id: 'users', label: 'Users', render: () => <UsersTab /> },
          { id: 'registration', label: 'Registration', render: () => <RegistrationTab /> },
          { id: 'reports', label: 'Reports', render: () => <ServerReportsTab /> },
          { id: 'audit', label: 'Audit log', render: () => <AuditLog load={serverAudit} /> },
          { id: 'import', label: 'Import', render: () => <ImportTab /> },
        ]}
      />
    </Dialog>
  );
}
