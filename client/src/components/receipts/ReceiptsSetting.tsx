import type { Me } from '@im/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { api } from '../../api/api.ts';

/**
 * Whether others see how far I read ("Seen by" in DMs and small groups).
 * Off: I am left out of everyone's receipts, and my reading tells no one.
 */
export function ReceiptsSetting(props: { account: Me | null }) {
  const { t } = useTranslation();
  const [sharing, setSharing] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (props.account) setSharing(props.account.shareReadReceipts !== false);
  }, [props.account]);
  if (sharing === null) return null;
  const change = async (next: boolean) => {
    setSharing(next);
    setError(null);
    try {
      await api.call('user.updateMe', { shareReadReceipts: next });
    } catch (err) {
      setSharing(!next);
      setError(describeError(err));
    }
  };
  return (
    <section className="form" aria-label={t('timeline.receipts.title')}>
      <h3>{t('timeline.receipts.title')}</h3>
      <label className="checkbox">
        <input type="checkbox" checked={sharing} onChange={(e) => void change(e.target.checked)} />
        {t('timeline.receipts.share')}
      </label>
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
