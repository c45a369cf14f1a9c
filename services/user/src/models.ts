import type { EmailNotifications } from '@im/protocol';
import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';
import type { StoredStatus } from './status/user-status.ts';

export interface UserDoc {
  _id: Types.ObjectId;
  /** Lower-case; unique. Rewritten to a tombstone (`deleted-<id>`) when the account is deleted. */
  username: string;
  /** A deleted account's username: reserved for good, never registered again. */
  formerUsername?: string;
  /** May use /api/admin. Set by ADMIN_USERNAMES (at start and at registration); follows the account, not the name. */
  serverAdmin?: boolean;
  nickname: string;
  /** Lower-case nickname, for indexed prefix search. */
  nicknameLower: string;
  avatar?: string;
  /** argon2id; absent on accounts made by single sign-on (they have no password). */
  passwordHash?: string;
  /** The account at the single sign-on provider this one is linked to (at most one per provider account). */
  oidc?: { issuer: string; sub: string };
  /** deactivated: by a server admin (login refused, sessions ended); deleted: by its owner. */
  status: 'active' | 'deactivated' | 'deleted';
  /** SHA-256 (hex) of the personal feed token; the token itself is shown once and never stored. */
  feedTokenHash?: string;
  /** Read receipts turned off: others do not see how far this user read (absent: shared). */
  hideReadReceipts?: boolean;
  /** Set for a bot: the group it belongs to, who made it, and the webhook or command it posts for. */
  bot?: {
    groupId: Types.ObjectId;
    createdBy: Types.ObjectId;
    managedBy?: { kind: 'incoming' | 'outgoing' | 'command'; id: Types.ObjectId };
  };
  /** The e-mail address as typed (or as the sign-in provider gave it). */
  email?: string;
  /** `email` lower-cased: how addresses are compared and found. */
  emailLower?: string;
  /** Set only while `email` is verified: `emailLower`, unique among verified accounts. */
  verifiedEmail?: string;
  /** Missed-message e-mails (absent: after 10 minutes). */
  emailNotifications?: EmailNotifications;
  /** Do not disturb and the custom status (`status` is the account's state). */
  presenceStatus?: StoredStatus;
  /** When what others see of the status changes by itself next: the stored deadline any node acts on. */
  statusCheckAt?: Date;
  /** Made by an import (no password yet): set until its person claims it with a claim link. */
  imported?: boolean;
  /** What the newest claim link of an imported account is bound to: a new link or the claim replaces it. */
  claimNonce?: string;
  createdAt: Date;
}

const userSchema = new Schema<UserDoc>(
  {
    username: { type: String, required: true },
    formerUsername: { type: String },
    serverAdmin: { type: Boolean },
    nickname: { type: String, required: true },
    nicknameLower: { type: String, required: true },
    avatar: { type: String },
    passwordHash: { type: String },
    oidc: { type: new Schema({ issuer: String, sub: String }, { _id: false }), default: undefined },
    status: { type: String, required: true, enum: ['active', 'deactivated', 'deleted'], default: 'active' },
    feedTokenHash: { type: String },
    hideReadReceipts: { type: Boolean },
    bot: { type: Schema.Types.Mixed },
    email: { type: String },
    emailLower: { type: String },
    verifiedEmail: { type: String },
    emailNotifications: { type: String, enum: ['off', '10m', '1h', 'daily'] },
    presenceStatus: { type: Schema.Types.Mixed },
    statusCheckAt: { type: Date },
    imported: { type: Boolean },
    claimNonce: { type: String },
  },
  { timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);
userSchema.index({ username: 1 }, { unique: true });
userSchema.index({ formerUsername: 1 }, { sparse: true });
// Only admins carry the flag (it is unset, never false): the start-up check reads this small index.
userSchema.index({ serverAdmin: 1 }, { sparse: true });
userSchema.index({ nicknameLower: 1 });
userSchema.index({ feedTokenHash: 1 }, { unique: true, sparse: true });
userSchema.index({ 'bot.groupId': 1 }, { sparse: true });
// An address belongs to one verified account; unverified ones may repeat (whoever verifies first has it).
userSchema.index({ verifiedEmail: 1 }, { unique: true, sparse: true });
userSchema.index({ emailLower: 1 }, { sparse: true });
// Only users with a status change due carry it: the deadline sweep reads this small index.
userSchema.index({ statusCheckAt: 1 }, { sparse: true });
// One local account per provider account; accounts without a link are left out of the index.
userSchema.index({ 'oidc.issuer': 1, 'oidc.sub': 1 }, { unique: true, sparse: true });

export type UserModel = Model<UserDoc>;

export const userModel = (connection: Connection): UserModel => modelOn(connection, 'User', userSchema);

/** One login. Tokens name it (`sid`); a revoked or expired session ends them. */
export interface SessionDoc {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  createdAt: Date;
  lastSeenAt: Date;
  /** When its tokens expire (TOKEN_TTL after login): the session is over then too. */
  expiresAt: Date;
  revokedAt?: Date;
  ip: string;
  userAgent: string;
}

const sessionSchema = new Schema<SessionDoc>(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    createdAt: { type: Date, required: true },
    lastSeenAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    revokedAt: { type: Date },
    ip: { type: String, required: true },
    userAgent: { type: String, required: true },
  },
  { versionKey: false },
);
sessionSchema.index({ userId: 1, expiresAt: -1 });
// Ended sessions are kept for a while (the list shows only live ones), then MongoDB drops them.
sessionSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 7 * 86400 });

export type SessionModel = Model<SessionDoc>;

export const sessionModel = (connection: Connection): SessionModel => modelOn(connection, 'Session', sessionSchema);

/** Settings a server admin changes at run time, one document each (`_id` is the setting's name). */
export interface SettingDoc {
  _id: string;
  value: unknown;
  updatedAt: Date;
  updatedBy: Types.ObjectId;
}

const settingSchema = new Schema<SettingDoc>(
  {
    _id: { type: String, required: true },
    value: { type: Schema.Types.Mixed, required: true },
    updatedAt: { type: Date, required: true },
    updatedBy: { type: Schema.Types.ObjectId, required: true },
  },
  { versionKey: false, collection: 'settings' },
);

export type SettingModel = Model<SettingDoc>;

export const settingModel = (connection: Connection): SettingModel => modelOn(connection, 'Setting', settingSchema);
