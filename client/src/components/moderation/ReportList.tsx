import { useTranslation } from 'react-i18next';
import type { Report, ResolveReportBody } from '@im/protocol';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { formatMoment } from '../messages/format.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';

type Action = ResolveReportBody['action'];

/**
 * Open reports, newest first: who reported what and why, the message as it
 * was when reported, and the two ways to close a report.
 */
export function ReportList(props: {
  reports: Report[] | undefined;
  error: string | null;
  /** Where the message was (the server console shows DMs and groups together). */
  where?: (report: Report) => string;
  resolve: (report: Report, action: Action) => Promise<unknown>;
  /** After a resolve: deleting a message closes every open report of it. */
  onResolved: (report: Report, action: Action) => void;
}) {
  const { t } = useTranslation();
  if (props.error) return <ErrorLine error={props.error} />;
  if (!props.reports) return <p className="hint">{t('moderation.reports.loading')}</p>;
  if (props.reports.length === 0) return <p className="hint">{t('moderation.reports.none')}</p>;
  return (
    <ul className="mod-list" aria-label={t('moderation.reports')}>
      {props.reports.map((report) => (
        <ReportItem key={report.id} report={report} {...props} />
      ))}
    </ul>
  );
}

function ReportItem(props: {
  report: Report;
  where?: (report: Report) => string;
  resolve: (report: Report, action: Action) => Promise<unknown>;
  onResolved: (report: Report, action: Action) => void;
}) {
  const { t } = useTranslation();
  const { report } = props;
  const users = useStore((s) => s.users);
  const { busy, error, run } = useAction();
  const reporter = displayName(report.reporter ?? users[report.reporterId], t('moderation.deletedAccount'));
  const author = displayName(report.author ?? users[report.message.authorId], t('moderation.deletedAccount'));
  const act = (action: Action) =>
    run(async () => {
      await props.resolve(report, action);
      props.onResolved(report, action);
    });
  return (
    <li className="mod-item" data-testid="report" aria-label={t('moderation.report.by', { reporter })}>
      <p className="mod-line">
        <span>{t('moderation.report.line', { reporter, author })}</span>
        <span className="hint">
          {' '}
          · <time dateTime={report.createdAt}>{formatMoment(report.createdAt)}</time>
          {props.where ? ` · ${props.where(report)}` : ''}
        </span>
      </p>
      <p className="mod-line">
        {t('moderation.report.reason')} <span data-testid="report-reason">{report.reason}</span>
      </p>
      <blockquote className="snapshot" data-testid="report-message">
        {report.message.content}
      </blockquote>
      <ErrorLine error={error} />
      <div className="mod-actions">
        <button type="button" disabled={busy} onClick={() => void act('dismiss')}>
          {t('moderation.report.dismiss')}
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => void act('delete')}>
          {t('moderation.report.delete')}
        </button>
      </div>
    </li>
  );
}

/** The list after a resolve: the report gone, and with a deleted message every report of it. */
export function withoutResolved(reports: Report[], resolved: Report, action: Action): Report[] {
  return reports.filter((r) => r.id !== resolved.id && !(action === 'delete' && r.messageId === resolved.messageId));
}
