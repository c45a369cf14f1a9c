import type { PushSubscriptionInfo } from '@im/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { thisBrowserSubscription } from '../../push/notifications.ts';
import { api } from '../../api/api.ts';

/** The push service a subscription goes through (its host): the rest of the endpoint is a secret of the browser's. */
const serviceOf = (endpoint: string): string => {
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
};

/**
 * The browsers that get my notifications (at most 10; subscribing an 11th
 * replaces the oldest); any of them can be removed. `refresh` changes when
 * this browser's own subscription was turned on or off. Removing this
 * browser's own subscription unsubscribes it here too (else the browser would
 * still count as subscribed while the server sends it nothing), then calls
 * `onThisBrowserRemoved`.
 */
export function PushSubscriptionsSection(props: { refresh: unknown; onThisBrowserRemoved?: () => void }) {
  const { t } = useTranslation();
  const [subscriptions, setSubscriptions] = useState<PushSubscriptionInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    api
      .call('push.subscriptions')
      .then((list) => {
        setSubscriptions(list);
        setError(null);
      })
      .catch((err: unknown) => setError(describeError(err)));
  useEffect(() => void load(), [props.refresh]);
  const remove = async (endpoint: string) => {
    try {
      const own = await thisBrowserSubscription().catch(() => null);
      await api.call('push.unsubscribe', { endpoint });
      if (own?.endpoint === endpoint) {
        await own.unsubscribe();
        props.onThisBrowserRemoved?.();
      }
      await load();
    } catch (err) {
      setError(describeError(err));
    }
  };
  if (subscriptions?.length === 0 && !error) return null;
  return (
    <div data-testid="push-subscriptions">
      <p className="hint">{t('account.push.browsers', { max: 10 })}</p>
      <ul className="session-list">
        {subscriptions?.map((s) => (
          <li key={s.endpoint} data-testid="push-subscription">
            <span className="session-agent">{serviceOf(s.endpoint)}</span>
            <span className="hint">{t('account.push.since', { at: new Date(s.createdAt) })}</span>
            <button type="button" onClick={() => void remove(s.endpoint)}>
              {t('account.push.remove')}
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p className="hint" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
