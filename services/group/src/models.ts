import { modelOn } from '@im/sdk';
import { Schema, type Connection, type Model, type Types } from 'mongoose';
import {
  GROUP_LANGUAGES,
  type GroupLanguage,
  type GroupRole,
  type GroupVisibility,
  type Permission,
  type PostingRole,
} from '@im/protocol';

export interface PanelDoc {
  _id: Types.ObjectId;
  name: string;
  type: 'text' | 'voice';
  converseId: Types.ObjectId;
  /** Absent on panels made before it existed: everyone may post. */
  postingRole?: PostingRole;
  /** Readable without an account at /p/:id (only while the group is public). */
  webPublic?: boolean;
  topic?: string;
  /** Seen only by owner, admins, holders of `allowRoleIds` and `allowUserIds`. */
  private?: boolean;
  allowRoleIds?: Types.ObjectId[];
  allowUserIds?: Types.ObjectId[];
}

/** A custom role: few per group and read with it, so kept inside it like panels. */
export interface RoleDoc {
  _id: Types.ObjectId;
  name: string;
  color?: string;
  permissions: Permission[];
  /** 1 and up (`@everyone` is 0); unique within the group. */
  position: number;
}

/** Panels are few per group and read with it, so they live inside it; members do not. */
export interface GroupDoc {
  _id: Types.ObjectId;
  name: string;
  ownerId: Types.ObjectId;
  panels: PanelDoc[];
  memberCount: number;
  /** Absent on groups made before it existed: private. */
  visibility?: GroupVisibility;
  description?: string;
  /** Absent on groups made before it existed: English. */
  language?: GroupLanguage;
  /** The icon's file (an image the file service keeps readable by everyone signed in). */
  icon?: Types.ObjectId;
  roles?: RoleDoc[];
  /** What `@everyone` may do (absent: the default, see permissions.ts). */
  everyonePermissions?: Permission[];
  /** +1 on every change of `roles` or `everyonePermissions` (role edits compare and set it). */
  rolesVersion?: number;
  createdAt: Date;
}

export interface MemberDoc {
  _id: Types.ObjectId;
  groupId: Types.ObjectId;
  userId: Types.ObjectId;
  role: GroupRole;
  joinedAt: Date;
  /** Until then the member cannot send, react or edit in the group (stored, no job lifts it). */
  mutedUntil?: Date;
  /** Custom roles held (ids of the group's roles). */
  roleIds?: Types.ObjectId[];
}

export interface InviteDoc {
  _id: Types.ObjectId;
  code: string;
  groupId: Types.ObjectId;
  createdBy: Types.ObjectId;
  /** null: unlimited uses. */
  maxUses: number | null;
  /** Uses left when limited; decremented atomically on accept. */
  remaining: number | null;
  uses: number;
  expiresAt: Date;
  createdAt: Date;
}

/** A user kept out of a group: every later join is refused. */
export interface BanDoc {
  _id: Types.ObjectId;
  groupId: Types.ObjectId;
  userId: Types.ObjectId;
  reason: string;
  bannedBy: Types.ObjectId;
  bannedAt: Date;
}

const panelSchema = new Schema<PanelDoc>({
  name: { type: String, required: true },
  type: { type: String, required: true, enum: ['text', 'voice'] },
  converseId: { type: Schema.Types.ObjectId, required: true },
  postingRole: { type: String, enum: ['member', 'admin'] },
  webPublic: { type: Boolean },
  topic: { type: String },
  private: { type: Boolean },
  allowRoleIds: { type: [Schema.Types.ObjectId], default: undefined },
  allowUserIds: { type: [Schema.Types.ObjectId], default: undefined },
});

const roleSchema = new Schema<RoleDoc>({
  name: { type: String, required: true },
  color: { type: String },
  permissions: { type: [String], default: [] },
  position: { type: Number, required: true },
});

const groupSchema = new Schema<GroupDoc>(
  {
    name: { type: String, required: true },
    ownerId: { type: Schema.Types.ObjectId, required: true },
    panels: { type: [panelSchema], default: [] },
    memberCount: { type: Number, required: true, default: 0 },
    visibility: { type: String, enum: ['private', 'public'] },
    description: { type: String },
    language: { type: String, enum: GROUP_LANGUAGES },
    icon: { type: Schema.Types.ObjectId },
    roles: { type: [roleSchema], default: undefined },
    everyonePermissions: { type: [String], default: undefined },
    rolesVersion: { type: Number },
  },
  { timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);
groupSchema.index({ 'panels.converseId': 1 });
groupSchema.index({ 'panels._id': 1 });
// The directory: public groups, largest first.
groupSchema.index({ visibility: 1, memberCount: -1, _id: 1 });

const memberSchema = new Schema<MemberDoc>(
  {
    groupId: { type: Schema.Types.ObjectId, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    role: { type: String, required: true, enum: ['owner', 'admin', 'member'] },
    joinedAt: { type: Date, required: true, default: () => new Date() },
    mutedUntil: { type: Date },
    roleIds: { type: [Schema.Types.ObjectId], default: undefined },
  },
  { versionKey: false },
);
memberSchema.index({ groupId: 1, userId: 1 }, { unique: true });
// A role's holders (a private panel's audience, a role's deletion).
memberSchema.index({ groupId: 1, roleIds: 1 });
memberSchema.index({ userId: 1 });

const inviteSchema = new Schema<InviteDoc>(
  {
    code: { type: String, required: true },
    groupId: { type: Schema.Types.ObjectId, required: true },
    createdBy: { type: Schema.Types.ObjectId, required: true },
    maxUses: { type: Number, default: null },
    remaining: { type: Number, default: null },
    uses: { type: Number, required: true, default: 0 },
    expiresAt: { type: Date, required: true },
    createdAt: { type: Date, required: true, default: () => new Date() },
  },
  { versionKey: false },
);
inviteSchema.index({ code: 1 }, { unique: true });
inviteSchema.index({ groupId: 1 });

const banSchema = new Schema<BanDoc>(
  {
    groupId: { type: Schema.Types.ObjectId, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    reason: { type: String, default: '' },
    bannedBy: { type: Schema.Types.ObjectId, required: true },
    bannedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
banSchema.index({ groupId: 1, userId: 1 }, { unique: true });

/** A named set of a group's members, mentioned together as `@handle` (many per group, so kept apart). */
export interface UserGroupDoc {
  _id: Types.ObjectId;
  groupId: Types.ObjectId;
  handle: string;
  name: string;
  memberIds: Types.ObjectId[];
}

const userGroupSchema = new Schema<UserGroupDoc>(
  {
    groupId: { type: Schema.Types.ObjectId, required: true },
    handle: { type: String, required: true },
    name: { type: String, required: true },
    memberIds: { type: [Schema.Types.ObjectId], default: [] },
  },
  { versionKey: false },
);
// One handle per group (a duplicate is a 409 decided by this index, not by a read first).
userGroupSchema.index({ groupId: 1, handle: 1 }, { unique: true });
// Someone leaving is taken off every user group of the group.
userGroupSchema.index({ groupId: 1, memberIds: 1 });

export interface GroupModels {
  groups: Model<GroupDoc>;
  userGroups: Model<UserGroupDoc>;
  members: Model<MemberDoc>;
  invites: Model<InviteDoc>;
  bans: Model<BanDoc>;
}

export function groupModels(connection: Connection): GroupModels {
  const get = <T>(name: string, schema: Schema<T>) => modelOn(connection, name, schema);
  return {
    groups: get('Group', groupSchema),
    userGroups: get('UserGroup', userGroupSchema),
    members: get('Member', memberSchema),
    invites: get('Invite', inviteSchema),
    bans: get('Ban', banSchema),
  };
}
