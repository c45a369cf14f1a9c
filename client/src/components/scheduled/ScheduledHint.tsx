import { useTranslation } from 'react-i18next';
import { openScheduled, useScheduled } from '../../state/scheduled.ts';

/** Above the composer: how many of my messages wait to be sent here, and the way to the list. */
export function ScheduledHint(props: { converseId: string }) {
  const { t } = useTranslation();
  const items = useScheduled((s) => s.items);
  const here = items.filter((i) => i.converseId === props.converseId);
  if (here.length === 0) return null;
  const failed = here.filter((i) => i.status === 'failed').length;
  const waiting = here.length - failed;
  return (
    <div className="scheduled-hint" role="status" data-testid="scheduled-hint">
      {t('scheduled.hint', { waiting, failed })}{' '}
      <button type="button" className="link" onClick={() => openScheduled()}>
        {t('scheduled.hint.see')}
      </button>
    </div>
  );
}
