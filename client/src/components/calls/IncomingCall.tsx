import { useTranslation } from 'react-i18next';
import { useEffect } from 'react';
import { acceptCall, declineCall, stopRinging, useCalls } from '../../state/calls.ts';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { Dialog } from '../common/Dialog.tsx';
import { Icon } from '../common/Icon.tsx';

/** Someone calls me in a DM: who, with Accept and Decline, while it rings (at most RING_MS, see calls.ts). */
export function IncomingCall() {
  const { t } = useTranslation();
  const ringing = useCalls((s) => s.ringing);
  const caller = useStore((s) => (ringing ? s.users[ringing.callerId] : undefined));
  useRingtone(ringing !== null);
  if (!ringing) return null;
  const name = displayName(caller, t('calls.someone'));
  return (
    // Closing it (Escape) silences this device only; the caller keeps calling until told otherwise.
    <Dialog title={t('calls.incoming')} onClose={stopRinging}>
      <div className="incoming-call" data-testid="incoming-call">
        <Avatar user={caller} size={64} />
        <p>{t('calls.incoming.who', { name })}</p>
        <div className="form-actions">
          <button type="button" className="danger" onClick={() => void declineCall()}>
            <Icon name="hangup" /> {t('calls.decline')}
          </button>
          <button type="button" className="primary" onClick={() => void acceptCall(name)}>
            <Icon name="phone" /> {t('calls.accept')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** A soft two-tone ring while `on`; silent where the browser does not let a page play sound yet. */
function useRingtone(on: boolean): void {
  useEffect(() => {
    if (!on || typeof AudioContext === 'undefined') return;
    let context: AudioContext;
    try {
      context = new AudioContext();
    } catch {
      return;
    }
    const ring = () => {
      if (context.state !== 'running') return;
      const gain = context.createGain();
      gain.gain.value = 0.05;
      gain.connect(context.destination);
      for (const [i, frequency] of [440, 480].entries()) {
        const tone = context.createOscillator();
        tone.frequency.value = frequency;
        tone.connect(gain);
        tone.start(context.currentTime + i * 0.4);
        tone.stop(context.currentTime + i * 0.4 + 0.35);
      }
    };
    ring();
    const every = setInterval(ring, 2000);
    return () => {
      clearInterval(every);
      void context.close();
    };
  }, [on]);
}
