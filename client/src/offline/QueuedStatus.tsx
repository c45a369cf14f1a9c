import { useTranslation } from 'react-i18next';

/** Under a message waiting for the connection: it goes by itself once connected, or the user cancels it. */
export function QueuedStatus(props: { onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="status queued" data-testid="queued-status">
      {t('offline.queued')} ·{' '}
      <button type="button" className="link" onClick={props.onCancel}>
        {t('offline.cancelSend')}
      </button>
    </div>
  );
}
