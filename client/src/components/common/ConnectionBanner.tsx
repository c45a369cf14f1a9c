import { useTranslation } from 'react-i18next';
import { useStore } from '../../state/store.ts';

const TEXT = {
  connecting: 'connection.connecting',
  reconnecting: 'connection.reconnecting',
  offline: 'connection.offline',
  displaced: 'connection.displaced',
} as const;

/** Says so whenever the live connection is not up; a window closed for the others can be taken back. */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const connection = useStore((s) => s.connection);
  return (
    <div className={`connection ${connection}`} role="status" data-testid="connection" data-state={connection}>
      {connection === 'online' ? null : t(TEXT[connection])}
      {connection === 'displaced' && (
        // Loading again connects anew, which closes the oldest of the others instead.
        <button type="button" onClick={() => window.location.reload()}>
          {t('connection.useHere')}
        </button>
      )}
    </div>
  );
}
