import type { ImportJob, ImportKind } from '@im/protocol';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { IMPORT_KINDS, importFinished, listImports, startImport, watchImport, withJob } from '../../state/imports.ts';
import { useStore } from '../../state/store.ts';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { formatMoment } from '../messages/format.ts';
import { ImportJobView, kindLabel, statusLabel } from './ImportJobView.tsx';

/**
 * The server admins' Import page: upload an export (Slack, Mattermost,
 * Discord, or this platform's own archive) for a group owned by someone
 * (me unless told), follow its progress, read its summary, and the imports
 * made before (from here or by `npm run import`).
 */
export function ImportTab() {
  const { t } = useTranslation();
  const myName = useStore((s) => s.me?.username ?? '');
  const [kind, setKind] = useState<ImportKind>('slack');
  const [owner, setOwner] = useState(myName);
  const [file, setFile] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [jobs, setJobs] = useState<ImportJob[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [shownId, setShownId] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    listImports().then(
      (list) => {
        if (!current) return;
        // An import started here before the list came back stays in it.
        setJobs((known) => (known ?? []).reduce(withJob, list));
        setShownId((id) => id ?? list.find((j) => !importFinished(j))?.id ?? null);
      },
      (err: unknown) => current && setListError(describeError(err)),
    );
    return () => {
      current = false;
    };
  }, []);

  const shown = jobs?.find((j) => j.id === shownId) ?? null;
  const following = shown && !importFinished(shown) ? shown.id : null;
  useEffect(() => {
    if (!following) return;
    return watchImport(following, (job) => setJobs((list) => withJob(list ?? [], job)));
  }, [following]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!file) {
      setError(t('admin.import.noFile'));
      return;
    }
    setUploaded(0);
    try {
      const job = await startImport(kind, owner.trim() || myName, file, setUploaded).promise;
      setJobs((list) => withJob(list ?? [], job));
      setShownId(job.id);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setUploaded(null);
    }
  };

  const hint = IMPORT_KINDS.find((k) => k.kind === kind)?.hint;
  return (
    <div className="form import-tab">
      <form className="form" onSubmit={(e) => void submit(e)} aria-label={t('admin.import.form')}>
        <label>
          {t('admin.import.from')}
          <select value={kind} onChange={(e) => setKind(e.target.value as ImportKind)}>
            {IMPORT_KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {t(k.label)}
              </option>
            ))}
          </select>
        </label>
        <p className="hint">{hint && t(hint)}</p>
        <label>
          {t('admin.import.owner')}
          <input
            value={owner}
            maxLength={32}
            autoComplete="off"
            placeholder={myName}
            onChange={(e) => setOwner(e.target.value)}
          />
        </label>
        <label>
          {t('admin.import.file')}
          <input
            type="file"
            accept=".zip,.json,.jsonl"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setError(null);
            }}
          />
        </label>
        <p className="hint">{t('admin.import.matching')}</p>
        <ErrorLine error={error} />
        {uploaded !== null && (
          <p role="status">
            {t('admin.import.uploading', { done: uploaded })}
            <progress max={1} value={uploaded} aria-label={t('admin.import.upload')} />
          </p>
        )}
        <button type="submit" className="primary" disabled={uploaded !== null}>
          {t('admin.import.start')}
        </button>
      </form>
      {shown && <ImportJobView job={shown} />}
      <h3>{t('admin.import.recent')}</h3>
      <ErrorLine error={listError} />
      {jobs?.length === 0 && <p className="hint">{t('admin.import.none')}</p>}
      {jobs === null && !listError && <p className="hint">{t('common.loading')}</p>}
      <ul className="mod-list" aria-label={t('admin.import.recent')}>
        {jobs?.map((job) => (
          <li key={job.id} className="mod-item" data-testid="import-row">
            <button type="button" className="link" aria-pressed={job.id === shownId} onClick={() => setShownId(job.id)}>
              {job.fileName}
            </button>{' '}
            <span className="hint">
              {t('admin.import.row', {
                kind: kindLabel(job),
                status: statusLabel(job),
                when: formatMoment(job.startedAt),
                count: job.summary?.messages ?? -1,
              })}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
