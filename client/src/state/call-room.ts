import type { CallJoin } from '@im/protocol';
import { Room, RoomEvent, Track, type Participant } from 'livekit-client';

/** What the app hears from the LiveKit room of its call. */
export interface RoomListener {
  /** Anything shown changed: tracks, mutes, who speaks, who is there. */
  changed: () => void;
  /** The server changed what I may do (a mute in the group, a role). */
  permissions: (canPublish: boolean) => void;
  /** The room is gone: ended by the server, or the connection lost for good. */
  ended: () => void;
}

export type DeviceKind = 'audioinput' | 'videoinput' | 'audiooutput';

/** A participant as a tile shows them. */
export interface Seat {
  userId: string;
  local: boolean;
  speaking: boolean;
  microphone: boolean;
  camera?: Track;
  screen?: Track;
  audio?: Track;
}

/** The LiveKit room of my call: the few things the app does with it. */
export interface CallRoom {
  canPublish(): boolean;
  /** What I publish now, as the room has it. */
  published(): { microphone: boolean; camera: boolean; screen: boolean };
  setEnabled(kind: 'microphone' | 'camera' | 'screen', on: boolean): Promise<void>;
  seats(): Seat[];
  devices(kind: DeviceKind): Promise<MediaDeviceInfo[]>;
  activeDevice(kind: DeviceKind): string | undefined;
  switchDevice(kind: DeviceKind, deviceId: string): Promise<void>;
  /** Browsers that block autoplay need a click before remote audio plays. */
  canPlayAudio(): boolean;
  startAudio(): Promise<void>;
  disconnect(): Promise<void>;
}

const CHANGES = [
  RoomEvent.ParticipantConnected,
  RoomEvent.ParticipantDisconnected,
  RoomEvent.TrackSubscribed,
  RoomEvent.TrackUnsubscribed,
  RoomEvent.TrackMuted,
  RoomEvent.TrackUnmuted,
  RoomEvent.LocalTrackPublished,
  RoomEvent.LocalTrackUnpublished,
  RoomEvent.ActiveSpeakersChanged,
  RoomEvent.ActiveDeviceChanged,
  RoomEvent.AudioPlaybackStatusChanged,
] as const;

function seatOf(p: Participant, local: boolean): Seat {
  const track = (source: Track.Source) => {
    const publication = p.getTrackPublication(source);
    return publication && !publication.isMuted ? publication.track : undefined;
  };
  return {
    userId: p.identity,
    local,
    speaking: p.isSpeaking,
    microphone: p.isMicrophoneEnabled,
    camera: track(Track.Source.Camera),
    screen: track(Track.Source.ScreenShare),
    // My own voice is never played back to me.
    audio: local ? undefined : track(Track.Source.Microphone),
  };
}

/** Connects to the call's room with the server's token. */
export async function connectRoom(grant: CallJoin, listener: RoomListener): Promise<CallRoom> {
  const room = new Room({ adaptiveStream: true, dynacast: true });
  for (const event of CHANGES) room.on(event, listener.changed);
  room.on(RoomEvent.ParticipantPermissionsChanged, () => {
    listener.permissions(room.localParticipant.permissions?.canPublish ?? false);
    listener.changed();
  });
  room.on(RoomEvent.Disconnected, listener.ended);
  await room.connect(grant.url, grant.token);
  return {
    canPublish: () => room.localParticipant.permissions?.canPublish ?? false,
    published: () => ({
      microphone: room.localParticipant.isMicrophoneEnabled,
      camera: room.localParticipant.isCameraEnabled,
      screen: room.localParticipant.isScreenShareEnabled,
    }),
    async setEnabled(kind, on) {
      const me = room.localParticipant;
      if (kind === 'microphone') await me.setMicrophoneEnabled(on);
      else if (kind === 'camera') await me.setCameraEnabled(on);
      else await me.setScreenShareEnabled(on);
      listener.changed();
    },
    seats: () => [
      seatOf(room.localParticipant, true),
      ...[...room.remoteParticipants.values()].map((p) => seatOf(p, false)),
    ],
    devices: (kind) => Room.getLocalDevices(kind, false),
    activeDevice: (kind) => room.getActiveDevice(kind),
    async switchDevice(kind, deviceId) {
      await room.switchActiveDevice(kind, deviceId);
      listener.changed();
    },
    canPlayAudio: () => room.canPlaybackAudio,
    startAudio: () => room.startAudio(),
    async disconnect() {
      room.off(RoomEvent.Disconnected, listener.ended);
      await room.disconnect();
    },
  };
}
