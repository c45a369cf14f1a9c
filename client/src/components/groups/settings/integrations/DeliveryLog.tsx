import type { DeliveryStatus, OutgoingWebhook, WebhookDelivery } from '@im/protocol';
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
    parts.push(`next attempt ${formatMoment(delivery.nextAttemptAt)}`);
  }
  return parts.join(' · ') || '—';
}

/** An outgoing webhook's recent deliveries, newest first, reloaded by hand. */
export function DeliveryLog(props: { groupId: string; hook: OutgoingWebhook }) {
  const { hook } = props;
  const log = useLoaded(hook.id, () => listDeliveries(props.groupId, hook.id));
  return (
    <div className="delivery-log" data-testid="delivery-log">
      <div className="mod-actions">
        <button type="button" onClick={log.reload}>
          Refresh <span className="visually-hidden">deliveries</span>
        </button>
      </div>
      <ErrorLine error={log.error} />
      {!log.data && !log.error && <p className="hint">Loading deliveries…</p>}
      {log.data?.length === 0 && <p className="hint">Nothing sent yet: deliveries show here as messages arrive.</p>}
      {log.data && log.data.length > 0 && (
        <table>
          <caption className="visually-hidden">Deliveries to {hook.name}</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Answer</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {log.data.map((d) => (
              <tr key={d.id} data-testid="delivery" data-status={d.status}>
                <td>
                  <time dateTime={d.at}>{formatMoment(d.at)}</time>
                </td>
                <td>
                  <span className={TAG[d.status]}>{d.status}</span>
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
