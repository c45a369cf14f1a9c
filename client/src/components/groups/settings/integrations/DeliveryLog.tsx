import type { DeliveryStatus, OutgoingWebhook, WebhookDelivery } from '@im/protocol';
import { Trans, useTranslation } from 'react-i18next';
import { t } from '../../../../i18n/i18n.ts';
import { listDeliveries } from '../../../../state/integrations.ts';
import { formatMoment } from '../../../messages/format.ts';
import { ErrorLine } from '../../../common/ErrorLine.tsx';
import { useLoaded } from '../../../moderation/useLoaded.ts';

const TAG: Record<DeliveryStatus, string> = {
  pending: 'state-tag',
  retrying: 'state-tag',
  delivered: 'state-tag ok',
  failed: 'state-tag off',
  dropped: 'state-tag off',
};

/** What became of the last attempt, in a few words. */
export function deliveryDetail(delivery: WebhookDelivery): string {
  const parts: string[] = [];
  if (delivery.lastError) parts.push(delivery.lastError);
  if (delivery.status === 'retrying' && delivery.nextAttemptAt) {
    parts.push(t('integrations.deliveries.nextAttempt', { when: formatMoment(delivery.nextAttemptAt) }));
  }
  return parts.join(' · ') || '—';
}

/** An outgoing webhook's recent deliveries, newest first, reloaded by hand. */
export function DeliveryLog(props: { groupId: string; hook: OutgoingWebhook }) {
  const { hook } = props;
  const { t } = useTranslation();
  const log = useLoaded(hook.id, () => listDeliveries(props.groupId, hook.id));
  return (
    <div className="delivery-log" data-testid="delivery-log">
      <div className="mod-actions">
        <button type="button" onClick={log.reload}>
          <Trans
            i18nKey="integrations.deliveries.refresh"
            components={{ hidden: <span className="visually-hidden" /> }}
          />
        </button>
      </div>
      <ErrorLine error={log.error} />
      {!log.data && !log.error && <p className="hint">{t('integrations.deliveries.loading')}</p>}
      {log.data?.length === 0 && <p className="hint">{t('integrations.deliveries.empty')}</p>}
      {log.data && log.data.length > 0 && (
        <table>
          <caption className="visually-hidden">{t('integrations.deliveries.caption', { name: hook.name })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('integrations.deliveries.when')}</th>
              <th scope="col">{t('integrations.deliveries.status')}</th>
              <th scope="col">{t('integrations.deliveries.attempts')}</th>
              <th scope="col">{t('integrations.deliveries.answer')}</th>
              <th scope="col">{t('integrations.deliveries.details')}</th>
            </tr>
          </thead>
          <tbody>
            {log.data.map((d) => (
              <tr key={d.id} data-testid="delivery" data-status={d.status}>
                <td>
                  <time dateTime={d.at}>{formatMoment(d.at)}</time>
                </td>
                <td>
                  <span className={TAG[d.status]}>{t('integrations.deliveries.state', { status: d.status })}</span>
                </td>
                <td>{d.attempts}</td>
                <td>{d.responseStatus ?? '—'}</td>
                <td>{deliveryDetail(d)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
