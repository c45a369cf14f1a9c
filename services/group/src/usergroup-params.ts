import { USER_GROUP_HANDLE_PATTERN } from '@im/protocol';
import { idParam, notBlank, strict } from '@im/sdk';

/** Most user groups a group may have. */
export const MAX_USER_GROUPS = 100;
/** Most members one user group may have. */
export const MAX_USER_GROUP_MEMBERS = 1000;

/** Lower-cased before it is checked: `@Devs` and `@devs` are one handle. */
const handle = {
  type: 'string',
  trim: true,
  lowercase: true,
  pattern: new RegExp(USER_GROUP_HANDLE_PATTERN),
} as const;
const name = { type: 'string', trim: true, min: 1, max: 64, ...notBlank } as const;
const memberIds = { type: 'array', items: idParam, max: MAX_USER_GROUP_MEMBERS, unique: true } as const;

/** User groups (`@handle` mentions): parameters of their actions (fastest-validator). */
export const userGroupParams = {
  list: strict({ groupId: idParam }),
  create: strict({ groupId: idParam, handle, name, memberIds }),
  update: strict({
    groupId: idParam,
    userGroupId: idParam,
    handle: { ...handle, optional: true },
    name: { ...name, optional: true },
    memberIds: { ...memberIds, optional: true },
  }),
  remove: strict({ groupId: idParam, userGroupId: idParam }),
};
