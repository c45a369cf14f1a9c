import { useStore } from '../../state/store.ts';

const TEXT = {
  connecting: 'Connecting…',
  reconnecting: 'Connection lost. Reconnecting…',
  offline: 'Offline',
  displaced: 'Paused: this account is open in too many other windows.',
} as const;

/** Says so whenever the live connection is not up; a window closed for the others can be taken back. */
export function ConnectionBanner() {
  const connection = useStore((s) => s.connection);
  return (
    <div className={`connection ${connection}`} role="status" data-testid="connection" data-state={connection}>
      {connection === 'online' ? null : TEXT[connection]}
      {connection === 'displaced' && (
        // Loading again connects anew, which closes the oldest of the others instead.
        <button type="button" onClick={() => window.location.reload()}>
          Use here
        </button>
      )}
    </div>
  );
}
