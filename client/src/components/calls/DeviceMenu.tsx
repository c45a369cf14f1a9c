import type { MessageKey } from '../../i18n/locales/en/index.ts';
import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { currentRoom } from '../../state/calls.ts';
import type { DeviceKind } from '../../state/call-room.ts';
import { notify } from '../../state/store.ts';

const KINDS: Array<{ kind: DeviceKind; label: MessageKey }> = [
  { kind: 'audioinput', label: 'calls.device.audioinput' },
  { kind: 'videoinput', label: 'calls.device.videoinput' },
  // Browsers that cannot choose where sound plays list no outputs: the choice is not offered then.
  { kind: 'audiooutput', label: 'calls.device.audiooutput' },
];

type Devices = Partial<Record<DeviceKind, MediaDeviceInfo[]>>;

/** The microphone, camera and speaker the call uses, chosen among those the browser lists. */
export function DeviceMenu() {
  const { t } = useTranslation();
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
  if (!devices) return <p className="hint">{t('calls.devices.looking')}</p>;
  const offered = KINDS.filter(({ kind }) => (devices[kind]?.length ?? 0) > 0);
  if (offered.length === 0) return <p className="hint">{t('calls.devices.none')}</p>;
  return (
    <div className="device-menu form" data-testid="device-menu">
      {offered.map(({ kind, label }) => (
        <label key={kind}>
          {t(label)}
          <select
            value={active[kind] ?? ''}
            onChange={(e) => {
              const deviceId = e.target.value;
              setActive((a) => ({ ...a, [kind]: deviceId }));
              void currentRoom()
                ?.switchDevice(kind, deviceId)
                .catch((err: unknown) => notify(t('calls.device.switchFailed', { kind, reason: describeError(err) })));
            }}
          >
            {active[kind] === undefined && <option value="">{t('calls.device.default')}</option>}
            {devices[kind]!.map((d, i) => (
              <option key={d.deviceId} value={d.deviceId}>
                {d.label || t('calls.device.numbered', { kind, n: i + 1 })}
              </option>
            ))}
          </select>
        </label>
      ))}
    </div>
  );
}
