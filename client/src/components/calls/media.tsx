import type { Track } from 'livekit-client';
import { useEffect, useRef } from 'react';
import { currentRoom, useCalls } from '../../state/calls.ts';
import type { Seat } from '../../state/call-room.ts';

/** Everyone in my call's room as tiles show them (me first), read again on every change in the room. */
export function useSeats(): Seat[] {
  useCalls((s) => s.roomVersion);
  useCalls((s) => s.mine?.phase);
  return currentRoom()?.seats() ?? [];
}

/** A ref whose element plays `track` while it is mounted (LiveKit attaches and detaches the media). */
function useAttached<E extends HTMLMediaElement>(track: Track) {
  const ref = useRef<E>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    track.attach(el);
    return () => void track.detach(el);
  }, [track]);
  return ref;
}

/** A LiveKit video track in a <video> element. */
export function TrackVideo(props: { track: Track; local: boolean; label: string }) {
  const ref = useAttached<HTMLVideoElement>(props.track);
  return (
    <video
      ref={ref}
      autoPlay
      playsInline
      muted
      aria-label={props.label}
      data-testid={props.local ? 'local-video' : 'remote-video'}
    />
  );
}

/** Another participant's voice: played, never shown. */
export function TrackAudio(props: { track: Track; userId: string }) {
  const ref = useAttached<HTMLAudioElement>(props.track);
  return <audio ref={ref} autoPlay data-testid="remote-audio" data-user-id={props.userId} />;
}
