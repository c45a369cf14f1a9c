import type { ExportAccepted, ExportJob } from '@im/protocol';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../messages/format.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { useAction } from '../common/useAction.ts';
import { api } from '../../api/api.ts';

/** How often a running export is asked about: an export takes seconds to minutes, progress is not finer than that. */
const POLL_MS = 1500;

/**
 * Asks for an export (a group's, or my own data) and follows it: a line while
 * the server writes the archive, then its download link (signed, good for a
 * while; asking again gives a fresh one), or why it failed.
 */
export function ExportSection(props: {
  title: string;
  hint: string;
  button: string;
  start: () => Promise<ExportAccepted>;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [job, setJob] = useState<ExportJob | null>(null);
  const { busy, error, run } = useAction();
  const running = job?.status === 'running';

  useEffect(() => {
    if (!running || !job) return undefined;
    let stopped = false;
    const timer = setInterval(() => {
      void api.call('import.exportStatus', { exportId: job.id }).then(
        (next) => {
          if (!stopped) setJob(next);
        },
        () => undefined,
      );
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [running, job]);

  const begin = () =>
    run(async () => {
      const { id } = await props.start();
      setJob(await api.call('import.exportStatus', { exportId: id }));
    });

  return (
    <section className="form" aria-labelledby={titleId} data-testid="export">
      <h3 id={titleId}>{props.title}</h3>
      <p className="hint">{props.hint}</p>
      <ErrorLine error={error} />
      <div className="form-actions">
        <button type="button" disabled={busy || running} onClick={() => void begin()}>
          {props.button}
        </button>
      </div>
      {running && (
        <p role="status" className="hint">
          {t('exports.preparing')}
        </p>
      )}
      {job?.status === 'done' && job.url && (
        <p role="status">
          <a href={job.url} download>
            {t('exports.download')}
          </a>
          {job.size !== undefined && <span className="hint"> {t('exports.size', { size: formatSize(job.size) })}</span>}
        </p>
      )}
      {job?.status === 'failed' && <ErrorLine error={job.error?.message ?? t('exports.failed')} />}
    </section>
  );
}
