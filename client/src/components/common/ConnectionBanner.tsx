import { useStore } from '../../state/store.ts';

const TEXT = {
  connecting: 'Connecting…',
  reconnecting: 'Connection lost. Reconnecting…',
  offline: 'Offline',
} as const;

/** Says so whenever the live connection is not up. */
export function ConnectionBanner() {
  const connection = useStore((s) => s.connection);
  return (
    <div className={`connection ${connection}`} role="status" data-testid="connection" data-state={connection}>
      {connection === 'online' ? null : TEXT[connection]}
    </div>
  );
}
