import type { Me } from '@im/protocol';
import { useEffect, useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { api } from '../../api/api.ts';

/**
 * Whether others see how far I read ("Seen by" in DMs and small groups).
 * Off: I am left out of everyone's receipts, and my reading tells no one.
 */
export function ReceiptsSetting(props: { account: Me | null }) {
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
    <section className="form" aria-label="Read receipts">
      <h3>Read receipts</h3>
      <label className="checkbox">
        <input type="checkbox" checked={sharing} onChange={(e) => void change(e.target.checked)} />
        Let others see when I have read their messages
      </label>
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
