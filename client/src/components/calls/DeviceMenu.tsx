import { useEffect, useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { currentRoom } from '../../state/calls.ts';
import type { DeviceKind } from '../../state/call-room.ts';
import { notify } from '../../state/store.ts';

const KINDS: Array<{ kind: DeviceKind; label: string }> = [
  { kind: 'audioinput', label: 'Microphone' },
  { kind: 'videoinput', label: 'Camera' },
  // Browsers that cannot choose where sound plays list no outputs: the choice is not offered then.
  { kind: 'audiooutput', label: 'Speaker' },
];

type Devices = Partial<Record<DeviceKind, MediaDeviceInfo[]>>;

/** The microphone, camera and speaker the call uses, chosen among those the browser lists. */
export function DeviceMenu() {
  const [devices, setDevices] = useState<Devices | null>(null);
  const [active, setActive] = useState<Partial<Record<DeviceKind, string>>>({});
  useEffect(() => {
    const room = currentRoom();
    if (!room) return;
    let cancelled = false;
    void Promise.all(KINDS.map(({ kind }) => room.devices(kind).catch(() => []))).then((lists) => {
      if (cancelled) return;
      setDevices(Object.fromEntries(KINDS.map(({ kind }, i) => [kind, lists[i]!.filter((d) => d.deviceId)])));
      setActive(Object.fromEntries(KINDS.map(({ kind }) => [kind, room.activeDevice(kind)])));
    });
    return () => {
      cancelled = true;
    };
  }, []);
  if (!devices) return <p className="hint">Looking for devices…</p>;
  const offered = KINDS.filter(({ kind }) => (devices[kind]?.length ?? 0) > 0);
  if (offered.length === 0) return <p className="hint">The browser lists no devices to choose from.</p>;
  return (
    <div className="device-menu form" data-testid="device-menu">
      {offered.map(({ kind, label }) => (
        <label key={kind}>
          {label}
          <select
            value={active[kind] ?? ''}
            onChange={(e) => {
              const deviceId = e.target.value;
              setActive((a) => ({ ...a, [kind]: deviceId }));
              void currentRoom()
                ?.switchDevice(kind, deviceId)
                .catch((err: unknown) => notify(`Could not switch the ${label.toLowerCase()}: ${describeError(err)}`));
            }}
          >
            {active[kind] === undefined && <option value="">Default</option>}
            {devices[kind]!.map((d, i) => (
              <option key={d.deviceId} value={d.deviceId}>
                {d.label || `${label} ${i + 1}`}
              </option>
            ))}
          </select>
        </label>
      ))}
    </div>
  );
}
