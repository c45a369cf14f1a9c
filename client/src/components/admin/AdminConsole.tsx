import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  return (
    <Dialog title={t('admin.title')} onClose={props.onClose} wide>
      <Tabs
        label={t('admin.title')}
        tabs={[
          { id: 'users', label: t('admin.tab.users'), render: () => <UsersTab /> },
          { id: 'registration', label: t('admin.tab.registration'), render: () => <RegistrationTab /> },
          { id: 'reports', label: t('admin.tab.reports'), render: () => <ServerReportsTab /> },
          { id: 'audit', label: t('admin.tab.audit'), render: () => <AuditLog load={serverAudit} /> },
          { id: 'import', label: t('admin.tab.import'), render: () => <ImportTab /> },
        ]}
      />
    </Dialog>
  );
}
