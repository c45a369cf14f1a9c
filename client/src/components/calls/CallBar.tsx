import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import {
  currentRoom,
  dismissCall,
  leaveCall,
  setCamera,
  setMicrophone,
  setScreenShare,
  useCalls,
  type MyCall,
} from '../../state/calls.ts';
import { navigate } from '../../state/navigation.ts';
import { Icon, type IconName } from '../common/Icon.tsx';
import { useMenu } from '../common/useMenu.ts';
import { DeviceMenu } from './DeviceMenu.tsx';
import { TrackAudio, useSeats } from './media.tsx';

const PHASE_TEXT = {
  connecting: 'calls.phase.connecting',
  calling: 'calls.phase.calling',
  live: 'calls.phase.live',
  declined: 'calls.phase.declined',
  'no-answer': 'calls.phase.noAnswer',
  ended: 'calls.phase.ended',
  failed: 'calls.phase.failed',
} as const satisfies Record<MyCall['phase'], string>;

const inRoom = (phase: MyCall['phase']) => phase === 'calling' || phase === 'live';

/**
 * My call, wherever I am in the app: its name and state, the microphone,
 * camera, screen sharing, devices and Leave. It also plays the others' voices.
 */
export function CallBar() {
  const { t } = useTranslation();
  const mine = useCalls((s) => s.mine);
  if (!mine) return null;
  return (
    <section
      className={`call-bar ${mine.phase}`}
      aria-label={t('calls.call')}
      data-testid="call-bar"
      data-phase={mine.phase}
    >
      <button
        type="button"
        className="call-bar-name"
        title={t('calls.goTo')}
        onClick={() =>
          navigate(
            mine.kind === 'dm'
              ? { name: 'dm', converseId: mine.converseId }
              : { name: 'group', groupId: mine.groupId!, converseId: mine.converseId },
          )
        }
      >
        <Icon name={mine.kind === 'dm' ? 'phone' : 'speaker'} size={16} />
        <span className="call-bar-title">{mine.name}</span>
        <span className="call-bar-phase" role="status" data-testid="call-phase">
          {t(PHASE_TEXT[mine.phase])}
        </span>
      </button>
      {mine.error && (
        <p className="call-bar-error" role="alert" data-testid="call-error">
          {mine.error}
        </p>
      )}
      {inRoom(mine.phase) ? <Controls mine={mine} /> : mine.phase !== 'connecting' && <Dismiss />}
      {inRoom(mine.phase) && <RemoteAudio />}
    </section>
  );
}

function Dismiss() {
  const { t } = useTranslation();
  return (
    <div className="call-controls">
      <button type="button" onClick={dismissCall}>
        {t('common.close')}
      </button>
    </div>
  );
}

function Controls(props: { mine: MyCall }) {
  const { t } = useTranslation();
  const { mine } = props;
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  return (
    <div className="call-controls" ref={ref}>
      {mine.canPublish ? (
        <>
          <ToggleButton
            label={mine.microphone ? t('calls.mic.mute') : t('calls.mic.unmute')}
            title={mine.microphone ? t('calls.mic.mute.short') : t('calls.mic.unmute.short')}
            pressed={!mine.microphone}
            icon={mine.microphone ? 'mic' : 'micOff'}
            onClick={() => void setMicrophone(!mine.microphone)}
          />
          <ToggleButton
            label={mine.camera ? t('calls.camera.off') : t('calls.camera.on')}
            title={mine.camera ? t('calls.camera.off.short') : t('calls.camera.on.short')}
            pressed={mine.camera}
            icon={mine.camera ? 'camera' : 'cameraOff'}
            onClick={() => void setCamera(!mine.camera)}
          />
          <ToggleButton
            label={mine.screen ? t('calls.screen.stop') : t('calls.screen.share')}
            title={mine.screen ? t('calls.screen.stop.short') : t('calls.screen.share')}
            pressed={mine.screen}
            icon="screen"
            onClick={() => void setScreenShare(!mine.screen)}
          />
        </>
      ) : (
        <span className="listen-only" data-testid="listen-only">
          {t('calls.listenOnly')}
        </span>
      )}
      <button
        type="button"
        className="icon-button"
        aria-label={t('calls.devices')}
        aria-expanded={open}
        title={t('calls.devices.title')}
        onClick={() => setOpen(!open)}
      >
        <Icon name="gear" />
      </button>
      {open && (
        <div className="menu call-device-popover" role="dialog" aria-label={t('calls.devices')}>
          <DeviceMenu />
        </div>
      )}
      <button
        type="button"
        className="danger-button"
        aria-label={t('calls.leave.label')}
        onClick={() => void leaveCall()}
      >
        <Icon name="hangup" />
        <span className="leave-text">{t('calls.leave')}</span>
      </button>
    </div>
  );
}

/** The others' voices; a browser that blocks autoplay gets a button to let them play. */
function RemoteAudio() {
  const { t } = useTranslation();
  const seats = useSeats();
  const [, setTick] = useState(0);
  const room = currentRoom();
  return (
    <>
      {seats.map((seat) => seat.audio && <TrackAudio key={seat.userId} track={seat.audio} userId={seat.userId} />)}
      {room && !room.canPlayAudio() && (
        <button type="button" onClick={() => void room.startAudio().then(() => setTick((n) => n + 1))}>
          {t('calls.allowSound')}
        </button>
      )}
    </>
  );
}

/** A call bar button that turns something on and off (its label says what a press does now). */
function ToggleButton(props: { label: string; title: string; pressed: boolean; icon: IconName; onClick: () => void }) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={props.label}
      aria-pressed={props.pressed}
      title={props.title}
      onClick={props.onClick}
    >
      <Icon name={props.icon} />
    </button>
  );
}
