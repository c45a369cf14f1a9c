import type { Report } from '@im/protocol';
import { useTranslation } from 'react-i18next';
import { listServerReports, resolveServerReport } from '../../state/admin.ts';
import { useStore } from '../../state/store.ts';
import { ReportList, withoutResolved } from '../moderation/ReportList.tsx';
import { useLoaded } from '../moderation/useLoaded.ts';

/** Open reports of direct messages and groups, for the server admins. */
export function ServerReportsTab() {
  const { t } = useTranslation();
  const groups = useStore((s) => s.groups);
  const reports = useLoaded('server-reports', listServerReports);
  const where = (report: Report) =>
    report.groupId === null
      ? t('admin.reports.inDm')
      : groups[report.groupId]
        ? t('admin.reports.inGroup', { group: groups[report.groupId]!.name })
        : t('admin.reports.inSomeGroup');
  return (
    <ReportList
      reports={reports.data}
      error={reports.error}
      where={where}
      resolve={(report, action) => resolveServerReport(report.id, action)}
      onResolved={(report, action) => reports.update((list) => withoutResolved(list, report, action))}
    />
  );
}
