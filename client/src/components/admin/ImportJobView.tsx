import type { ImportJob, ImportSummary } from '@im/protocol';
import { IMPORT_KINDS, importFinished, skippedReasons } from '../../state/imports.ts';
import { formatMoment } from '../messages/format.ts';

const SUMMARY_LINES: Array<[keyof ImportSummary, string]> = [
  ['groups', 'Groups'],
  ['panels', 'Panels'],
  ['users', 'Users'],
  ['messages', 'Messages'],
  ['replies', 'Thread replies'],
  ['reactions', 'Reactions'],
  ['files', 'Files'],
  ['skipped', 'Skipped'],
];

const STATUS: Record<ImportJob['status'], string> = {
  queued: 'Waiting to start',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
};

export const kindLabel = (job: ImportJob): string => IMPORT_KINDS.find((k) => k.kind === job.kind)?.label ?? job.kind;

/** "12,345 messages so far" (of the total when the import knows it). */
export function progressText(job: ImportJob): string {
  const { messages, total } = job.progress;
  const count = total ? `${messages.toLocaleString()} of ${total.toLocaleString()}` : messages.toLocaleString();
  return `${job.progress.phase}: ${count} messages so far`;
}

/** One import: its progress while it runs; what it wrote, what it skipped and why, once it ended. */
export function ImportJobView(props: { job: ImportJob }) {
  const { job } = props;
  const reasons = skippedReasons(job);
  return (
    <section className="import-job" aria-label={`Import of ${job.fileName}`} data-testid="import-job">
      <p className="mod-line">
        <strong>{job.fileName}</strong> <span className="hint">{kindLabel(job)}</span>{' '}
        <span
          className={job.status === 'failed' ? 'state-tag off' : 'state-tag ok'}
          data-testid="import-status"
          data-status={job.status}
        >
          {STATUS[job.status]}
        </span>
      </p>
      <p className="mod-line hint">
        Started {formatMoment(job.startedAt)}
        {job.finishedAt ? ` · ended ${formatMoment(job.finishedAt)}` : ''}
      </p>
      {!importFinished(job) && (
        <p role="status" data-testid="import-progress">
          {progressText(job)}
          {job.progress.total ? (
            <progress max={job.progress.total} value={job.progress.messages} aria-label="Messages imported" />
          ) : null}
        </p>
      )}
      {job.error && (
        <p role="alert" className="error">
          {job.error.message}
        </p>
      )}
      {job.summary && (
        <dl className="import-summary" aria-label="What the import wrote" data-testid="import-summary">
          {SUMMARY_LINES.map(([key, label]) => (
            <div key={key}>
              <dt>{label}</dt>
              <dd data-testid={`summary-${key}`}>{job.summary![key].toLocaleString()}</dd>
            </div>
          ))}
        </dl>
      )}
      {reasons.length > 0 && (
        <>
          <h4>Why things were skipped</h4>
          <ul aria-label="Skipped, by reason" data-testid="skipped-reasons">
            {reasons.map(([reason, count]) => (
              <li key={reason}>
                {reason}: {count.toLocaleString()}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
