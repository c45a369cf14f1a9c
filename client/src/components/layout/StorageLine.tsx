import type { Me } from '@im/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../messages/format.ts';
import { api } from '../../api/api.ts';

/** How much of my upload quota I use. */
export function StorageLine() {
  const { t } = useTranslation();
  const [storage, setStorage] = useState<Me['storage'] | null>(null);
  useEffect(() => {
    void api
      .call('user.me')
      .then((me) => setStorage(me.storage))
      .catch(() => undefined);
  }, []);
  if (!storage) return null;
  return (
    <p className="hint" data-testid="storage">
      {t('account.storage', { used: formatSize(storage.used), quota: formatSize(storage.quota) })}
    </p>
  );
}
