import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/errors.ts';
import { blockUser, unblockUser, useIsBlocked } from '../../state/blocks.ts';

/** Block or unblock someone from their profile card: no DMs between us, their messages folded away, no notifications of them. */
export function BlockButton(props: { userId: string }) {
  const { t } = useTranslation();
  const blocked = useIsBlocked(props.userId);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    setError(null);
    try {
      await (blocked ? unblockUser(props.userId) : blockUser(props.userId));
    } catch (err) {
      setError(describeError(err));
    }
  };
  return (
    <>
      <button type="button" className={blocked ? undefined : 'danger'} onClick={() => void toggle()}>
        {blocked ? t('safety.unblock') : t('safety.block')}
      </button>
      {blocked && <p className="hint">{t('safety.blockedHint')}</p>}
      {error && (
        <p className="hint" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
