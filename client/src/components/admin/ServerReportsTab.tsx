import type { Report } from '@im/protocol';
import { listServerReports, resolveServerReport } from '../../state/admin.ts';
import { useStore } from '../../state/store.ts';
import { ReportList, withoutResolved } from '../moderation/ReportList.tsx';
import { useLoaded } from '../moderation/useLoaded.ts';

/** Open reports of direct messages and groups, for the server admins. */
export function ServerReportsTab() {
  const groups = useStore((s) => s.groups);
  const reports = useLoaded('server-reports', listServerReports);
  const where = (report: Report) =>
    report.groupId === null ? 'in a direct message' : `in ${groups[report.groupId]?.name ?? 'a group'}`;
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
