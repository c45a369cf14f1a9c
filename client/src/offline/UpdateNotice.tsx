import { useTranslation } from 'react-i18next';
import { useAppUpdateReady } from './service-worker.ts';

/** Says a new version is ready (it runs from the next load); Reload loads it now. */
export function UpdateNotice() {
  const { t } = useTranslation();
  const ready = useAppUpdateReady();
  if (!ready) return null;
  return (
    <div className="update-notice" role="status" data-testid="update-notice">
      {t('offline.updateReady', { app: t('app.name') })}{' '}
      <button type="button" className="link" onClick={() => window.location.reload()}>
        {t('offline.reload')}
      </button>
    </div>
  );
}
