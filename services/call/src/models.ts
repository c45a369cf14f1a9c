import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';

/** Someone in a call: LiveKit's participant (its `sid` changes when they join again) and what they publish. */
export interface ParticipantDoc {
  userId: string;
  sid: string;
  joinedAt: Date;
  audio: boolean;
  video: boolean;
  screen: boolean;
}

/**
 * A call going on in a converse (its `_id`): made by the first join, deleted
 * when the last person leaves or LiveKit closes the room. Kept from
 * LiveKit's webhooks, which arrive in order for a room, one at a time.
 */
export interface CallDoc {
  _id: Types.ObjectId;
  startedAt: Date;
  /** Who joined first (a DM's caller). */
  callerId: string;
  /** The connection (LiveKit sid) of that first join: the join that finds it its own started the call. */
  openedBy: string;
  /** A DM's members; absent for a voice panel's call. */
  memberIds?: string[];
  /** A voice panel's group; absent for a DM's call. */
  groupId?: string;
  /** Everyone who was in it at some point: a DM call with two of them was answered. */
  everJoined: string[];
  /** A DM member who declined it. */
  declinedBy?: string;
  participants: ParticipantDoc[];
}

const participantSchema = new Schema<ParticipantDoc>(
  {
    userId: { type: String, required: true },
    sid: { type: String, required: true },
    joinedAt: { type: Date, required: true },
    audio: { type: Boolean, default: false },
    video: { type: Boolean, default: false },
    screen: { type: Boolean, default: false },
  },
  { _id: false },
);

const callSchema = new Schema<CallDoc>(
  {
    startedAt: { type: Date, required: true },
    callerId: { type: String, required: true },
    openedBy: { type: String, required: true },
    memberIds: { type: [String], default: undefined },
    groupId: { type: String },
    everJoined: { type: [String], default: [] },
    declinedBy: { type: String },
    participants: { type: [participantSchema], default: [] },
  },
  { versionKey: false },
);
// The calls a user is in: a member who leaves a group or is deactivated is taken out of them.
callSchema.index({ 'participants.userId': 1 });
// The DM calls that ring for a user (an app connecting asks once).
callSchema.index({ memberIds: 1 }, { sparse: true });

export type CallModel = Model<CallDoc>;

export const callModel = (connection: Connection): CallModel => modelOn(connection, 'Call', callSchema);
