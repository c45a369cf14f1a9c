import { listGroupReports, resolveGroupReport } from '../../../state/moderation.ts';
import { ReportList, withoutResolved } from '../../moderation/ReportList.tsx';
import { useLoaded } from '../../moderation/useLoaded.ts';

/** The group's open reports: dismiss one, or delete the message (closing every report of it). */
export function ReportsTab(props: { groupId: string }) {
  const { groupId } = props;
  const reports = useLoaded(groupId, () => listGroupReports(groupId));
  return (
    <ReportList
      reports={reports.data}
      error={reports.error}
      resolve={(report, action) => resolveGroupReport(groupId, report.id, action)}
      onResolved={(report, action) => reports.update((list) => withoutResolved(list, report, action))}
    />
  );
}
