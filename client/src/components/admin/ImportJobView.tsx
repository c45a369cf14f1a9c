import type { ImportJob, ImportSummary } from '@im/protocol';
import { useTranslation } from 'react-i18next';
import { t } from '../../i18n/i18n.ts';
import type { MessageKey } from '../../i18n/locales/en/index.ts';
import { IMPORT_KINDS, importFinished, skippedReasons } from '../../state/imports.ts';
import { formatMoment } from '../messages/format.ts';

const SUMMARY_LINES: Array<[keyof ImportSummary, MessageKey]> = [
  ['groups', 'admin.import.summary.groups'],
  ['panels', 'admin.import.summary.panels'],
  ['users', 'admin.import.summary.users'],
  ['messages', 'admin.import.summary.messages'],
  ['replies', 'admin.import.summary.replies'],
  ['reactions', 'admin.import.summary.reactions'],
  ['files', 'admin.import.summary.files'],
  ['skipped', 'admin.import.summary.skipped'],
];

const STATUS = {
  queued: 'admin.import.status.queued',
  running: 'admin.import.status.running',
  done: 'admin.import.status.done',
  failed: 'admin.import.status.failed',
} as const satisfies Record<ImportJob['status'], MessageKey>;

export const statusLabel = (job: ImportJob): string => t(STATUS[job.status]);

export const kindLabel = (job: ImportJob): string => {
  const label = IMPORT_KINDS.find((k) => k.kind === job.kind)?.label;
  return label ? t(label) : job.kind;
};

/** "12,345 messages so far" (of the total when the import knows it). */
export function progressText(job: ImportJob): string {
  const { messages, total, phase } = job.progress;
  return total
    ? t('admin.import.progressOf', { phase, count: messages, total })
    : t('admin.import.progress', { phase, count: messages });
}

/** One import: its progress while it runs; what it wrote, what it skipped and why, once it ended. */
export function ImportJobView(props: { job: ImportJob }) {
  const { t } = useTranslation();
  const { job } = props;
  const reasons = skippedReasons(job);
  return (
    <section className="import-job" aria-label={t('admin.import.of', { file: job.fileName })} data-testid="import-job">
      <p className="mod-line">
        <strong>{job.fileName}</strong> <span className="hint">{kindLabel(job)}</span>{' '}
        <span
          className={job.status === 'failed' ? 'state-tag off' : 'state-tag ok'}
          data-testid="import-status"
          data-status={job.status}
        >
          {t(STATUS[job.status])}
        </span>
      </p>
      <p className="mod-line hint">
        {job.finishedAt
          ? t('admin.import.startedEnded', {
              started: formatMoment(job.startedAt),
              ended: formatMoment(job.finishedAt),
            })
          : t('admin.import.started', { started: formatMoment(job.startedAt) })}
      </p>
      {!importFinished(job) && (
        <p role="status" data-testid="import-progress">
          {progressText(job)}
          {job.progress.total ? (
            <progress max={job.progress.total} value={job.progress.messages} aria-label={t('admin.import.imported')} />
          ) : null}
        </p>
      )}
      {job.error && (
        <p role="alert" className="error">
          {job.error.message}
        </p>
      )}
      {job.summary && (
        <dl className="import-summary" aria-label={t('admin.import.wrote')} data-testid="import-summary">
          {SUMMARY_LINES.map(([key, label]) => (
            <div key={key}>
              <dt>{t(label)}</dt>
              <dd data-testid={`summary-${key}`}>{t('format.number', { value: job.summary![key] })}</dd>
            </div>
          ))}
        </dl>
      )}
      {reasons.length > 0 && (
        <>
          <h4>{t('admin.import.why')}</h4>
          <ul aria-label={t('admin.import.skippedByReason')} data-testid="skipped-reasons">
            {reasons.map(([reason, count]) => (
              <li key={reason}>{t('admin.import.reason', { reason, count })}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
