import { GROUP_LANGUAGES, PERMISSIONS } from '@im/protocol';
import { idParam, limitParam, notBlank, strict } from '@im/sdk';

/**
 * The group service's action parameters (fastest-validator). The gateway's
 * OpenAPI document is generated from these, so the two cannot drift.
 */
/** Trimmed, and not blank (the pattern says so in the API document too). */
const name = {
  type: 'string',
  trim: true,
  min: 1,
  max: 64,
  ...notBlank,
} as const;
const groupName = name;
const panelName = name;

/** `<memberCount>.<id>` of the last group a directory page listed. */
export const DIRECTORY_CURSOR = /^\d{1,10}\.[0-9a-f]{24}$/;

/** A panel's topic: an empty one removes it. */
const panelTopic = { type: 'string', trim: true, max: 250 } as const;
/** A private panel's allowed roles or people. */
const allowList = { type: 'array', items: idParam, max: 100 } as const;
/** `#rrggbb`. */
const roleColor = { type: 'string', pattern: /^#[0-9a-fA-F]{6}$/ } as const;
const permissionList = {
  type: 'array',
  items: { type: 'enum', values: [...PERMISSIONS] },
  max: PERMISSIONS.length,
  unique: true,
} as const;

const inviteCode = { type: 'string', min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ } as const;

export const groupParams = {
  create: strict({ name: groupName }),
  /** A group an import wrote (internal: the import service). */
  adoptImported: strict({ groupId: idParam }),
  list: strict({}),
  get: strict({ groupId: idParam }),
  update: strict({
    groupId: idParam,
    name: { ...groupName, optional: true },
    visibility: { type: 'enum', values: ['private', 'public'], optional: true },
    /** An empty description removes it. */
    description: { type: 'string', trim: true, max: 500, optional: true },
    /** The language of the group's public pages and feeds. */
    language: { type: 'enum', values: [...GROUP_LANGUAGES], optional: true },
  }),
  directory: strict({
    q: { type: 'string', trim: true, max: 64, optional: true },
    cursor: { type: 'string', max: 40, pattern: DIRECTORY_CURSOR, optional: true },
    limit: limitParam,
  }),
  join: strict({ groupId: idParam }),
  namesOf: strict({ ids: { type: 'array', items: idParam, max: 200 } }),
  panelInfo: strict({ panelId: { ...idParam, optional: true }, converseId: { ...idParam, optional: true } }),
  remove: strict({ groupId: idParam }),
  members: strict({ groupId: idParam, cursor: { ...idParam, optional: true }, limit: limitParam }),
  removeMember: strict({ groupId: idParam, userId: idParam }),
  setRole: strict({ groupId: idParam, userId: idParam, role: { type: 'enum', values: ['admin', 'member'] } }),
  converseMember: strict({ converseId: idParam, userId: idParam }),
  converseMembers: strict({
    converseId: idParam,
    userIds: { type: 'array', items: idParam, max: 100 },
    /** Words written as `@word` that may be user groups' handles. */
    handles: { type: 'array', items: { type: 'string', max: 32 }, max: 50, optional: true },
  }),
  userConverses: strict({ userId: idParam }),
  coMembersAmong: strict({ userId: idParam, ids: { type: 'array', items: idParam, max: 1000 } }),
  converseRoster: strict({
    converseId: idParam,
    maxIds: { type: 'number', integer: true, min: 0, max: 100_000 },
  }),
  createPanel: strict({
    groupId: idParam,
    name: panelName,
    type: { type: 'enum', values: ['text', 'voice'] },
    topic: { ...panelTopic, optional: true },
    private: { type: 'boolean', optional: true },
    allowRoleIds: { ...allowList, optional: true },
    allowUserIds: { ...allowList, optional: true },
  }),
  updatePanel: strict({
    groupId: idParam,
    panelId: idParam,
    name: { ...panelName, optional: true },
    postingRole: { type: 'enum', values: ['member', 'admin'], optional: true },
    webPublic: { type: 'boolean', optional: true },
    topic: { ...panelTopic, optional: true },
    private: { type: 'boolean', optional: true },
    allowRoleIds: { ...allowList, optional: true },
    allowUserIds: { ...allowList, optional: true },
  }),
  deletePanel: strict({ groupId: idParam, panelId: idParam }),
  createInvite: strict({
    groupId: idParam,
    maxUses: { type: 'number', integer: true, min: 1, max: 1_000_000, optional: true },
    expiresInSec: { type: 'number', integer: true, min: 1, max: 31_536_000, optional: true },
  }),
  acceptInvite: strict({ code: inviteCode }),
  checkInvite: strict({ code: inviteCode }),
  previewInvite: strict({ code: inviteCode }),
  listInvites: strict({ groupId: idParam }),
  revokeInvite: strict({ groupId: idParam, code: inviteCode }),
  ban: strict({ groupId: idParam, userId: idParam, reason: { type: 'string', trim: true, max: 500, optional: true } }),
  unban: strict({ groupId: idParam, userId: idParam }),
  bans: strict({ groupId: idParam }),
  mute: strict({
    groupId: idParam,
    userId: idParam,
    seconds: { type: 'number', integer: true, min: 0, max: 31_536_000 },
  }),
  memberRole: strict({ groupId: idParam, userId: idParam }),
  memberAccess: strict({ groupId: idParam, userId: idParam }),
  roles: strict({ groupId: idParam }),
  createRole: strict({
    groupId: idParam,
    name: { ...name, max: 32 },
    color: { ...roleColor, optional: true },
    permissions: permissionList,
  }),
  updateRole: strict({
    groupId: idParam,
    roleId: idParam,
    name: { ...name, max: 32, optional: true },
    /** An empty colour removes it. */
    color: { type: 'string', pattern: /^(#[0-9a-fA-F]{6})?$/, optional: true },
    permissions: { ...permissionList, optional: true },
    position: { type: 'number', integer: true, min: 1, max: 250, optional: true },
  }),
  deleteRole: strict({ groupId: idParam, roleId: idParam }),
  giveRole: strict({ groupId: idParam, userId: idParam, roleId: idParam }),
  takeRole: strict({ groupId: idParam, userId: idParam, roleId: idParam }),
  forgetUser: strict({ userId: idParam }),
  botMember: strict({ groupId: idParam, userId: idParam }),
} as const;
