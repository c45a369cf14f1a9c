/**
 * Voice and video (shared/API.md, "Voice and video"): calls in voice panels
 * and DMs, carried by a LiveKit server; this server hands out access tokens
 * and keeps who is in which call from LiveKit's signed webhooks.
 */
import type { Id, Timestamp } from './index.ts';

/** `POST /api/converses/:id/call/join`: where to connect and the access token (1 h) for the converse's room. */
export interface CallJoin {
  /** The LiveKit server's WebSocket URL, as browsers reach it. */
  url: string;
  token: string;
  /** The LiveKit room: the converse's id. */
  room: string;
}

/** Someone in a call, with what they publish (from LiveKit's webhooks). */
export interface CallParticipant {
  userId: Id;
  joinedAt: Timestamp;
  audio: boolean;
  video: boolean;
  screen: boolean;
}

/** `GET /api/converses/:id/call`, and the socket event `call:updated`: who is in the converse's call now. */
export interface CallState {
  converseId: Id;
  /** In the order they joined; empty when no call is going on. */
  participants: CallParticipant[];
}

/**
 * Socket event `call:ringing`: someone started a call in a DM of yours; and
 * `GET /api/calls/ringing` (the DM calls ringing for you now, for an app that
 * connects while one rings).
 */
export interface CallRinging {
  converseId: Id;
  callerId: Id;
  /** When the call started: an app rings for a while from then, not from when it heard. */
  startedAt: Timestamp;
}

/** Socket event `call:declined`: a member declined the DM call (their other devices stop ringing too). */
export interface CallDeclined {
  converseId: Id;
  userId: Id;
}

/** On a DM message that records a call once it ended. */
export interface CallRecord {
  /** `missed`: nobody answered; `declined`: the other person declined; `ended`: it was answered. */
  outcome: 'missed' | 'declined' | 'ended';
  /** How long it lasted from its start, in whole seconds. */
  durationSec: number;
}
