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

const PHASE_TEXT: Record<MyCall['phase'], string> = {
  connecting: 'Connecting…',
  calling: 'Calling…',
  live: 'In the call',
  declined: 'Declined',
  'no-answer': 'No answer',
  ended: 'Call ended',
  failed: 'Could not join',
};

const inRoom = (phase: MyCall['phase']) => phase === 'calling' || phase === 'live';

/**
 * My call, wherever I am in the app: its name and state, the microphone,
 * camera, screen sharing, devices and Leave. It also plays the others' voices.
 */
export function CallBar() {
  const mine = useCalls((s) => s.mine);
  if (!mine) return null;
  return (
    <section className={`call-bar ${mine.phase}`} aria-label="Call" data-testid="call-bar" data-phase={mine.phase}>
      <button
        type="button"
        className="call-bar-name"
        title="Go to the call"
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
          {PHASE_TEXT[mine.phase]}
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
  return (
    <div className="call-controls">
      <button type="button" onClick={dismissCall}>
        Close
      </button>
    </div>
  );
}

function Controls(props: { mine: MyCall }) {
  const { mine } = props;
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  return (
    <div className="call-controls" ref={ref}>
      {mine.canPublish ? (
        <>
          <ToggleButton
            label={mine.microphone ? 'Mute microphone' : 'Unmute microphone'}
            title={mine.microphone ? 'Mute' : 'Unmute'}
            pressed={!mine.microphone}
            icon={mine.microphone ? 'mic' : 'micOff'}
            onClick={() => void setMicrophone(!mine.microphone)}
          />
          <ToggleButton
            label={mine.camera ? 'Turn camera off' : 'Turn camera on'}
            title={mine.camera ? 'Camera off' : 'Camera on'}
            pressed={mine.camera}
            icon={mine.camera ? 'camera' : 'cameraOff'}
            onClick={() => void setCamera(!mine.camera)}
          />
          <ToggleButton
            label={mine.screen ? 'Stop sharing the screen' : 'Share the screen'}
            title={mine.screen ? 'Stop sharing' : 'Share the screen'}
            pressed={mine.screen}
            icon="screen"
            onClick={() => void setScreenShare(!mine.screen)}
          />
        </>
      ) : (
        <span className="listen-only" data-testid="listen-only">
          Listening only
        </span>
      )}
      <button
        type="button"
        className="icon-button"
        aria-label="Devices"
        aria-expanded={open}
        title="Microphone, camera and speaker"
        onClick={() => setOpen(!open)}
      >
        <Icon name="gear" />
      </button>
      {open && (
        <div className="menu call-device-popover" role="dialog" aria-label="Devices">
          <DeviceMenu />
        </div>
      )}
      <button type="button" className="danger-button" aria-label="Leave call" onClick={() => void leaveCall()}>
        <Icon name="hangup" />
        <span className="leave-text">Leave</span>
      </button>
    </div>
  );
}

/** The others' voices; a browser that blocks autoplay gets a button to let them play. */
function RemoteAudio() {
  const seats = useSeats();
  const [, setTick] = useState(0);
  const room = currentRoom();
  return (
    <>
      {seats.map((seat) => seat.audio && <TrackAudio key={seat.userId} track={seat.audio} userId={seat.userId} />)}
      {room && !room.canPlayAudio() && (
        <button type="button" onClick={() => void room.startAudio().then(() => setTick((t) => t + 1))}>
          Allow sound
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
