import { useTranslation } from 'react-i18next';
import { useBrowserOnline } from '../../offline/browser-online.ts';
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
  // With no network at all, the app shows what this device kept (offline/): it says so rather than "reconnecting".
  const browserOnline = useBrowserOnline();
  const state =
    !browserOnline && (connection === 'connecting' || connection === 'reconnecting') ? 'offline' : connection;
  return (
    <div className={`connection ${state}`} role="status" data-testid="connection" data-state={state}>
      {state === 'online' ? null : state === 'offline' ? t('offline.banner') : t(TEXT[state])}
      {state === 'displaced' && (
        // Loading again connects anew, which closes the oldest of the others instead.
        <button type="button" onClick={() => window.location.reload()}>
          {t('connection.useHere')}
        </button>
      )}
    </div>
  );
}
