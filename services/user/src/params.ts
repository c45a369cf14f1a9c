import { idParam, limitParam, strict } from '@im/sdk';

/**
 * The user service's action parameters (fastest-validator). The gateway's
 * OpenAPI document is generated from these, so the two cannot drift.
 */
const username = { type: 'string', trim: true, lowercase: true, min: 3, max: 32, pattern: /^[a-z0-9_.-]+$/ } as const;
const password = { type: 'string', min: 8, max: 128 } as const;
const nickname = { type: 'string', trim: true, min: 1, max: 64 } as const;
const avatar = { type: 'string', max: 512, pattern: /^(https?:\/\/|\/api\/files\/)\S+$/ } as const;

export const userParams = {
  register: strict({ username, password, nickname: { ...nickname, optional: true } }),
  // Login accepts any name shape: a wrong one is just wrong credentials.
  login: strict({
    username: { type: 'string', trim: true, lowercase: true, min: 1, max: 64 },
    password: { type: 'string', min: 1, max: 128 },
  }),
  me: strict({}),
  updateMe: strict({ nickname: { ...nickname, optional: true }, avatar: { ...avatar, optional: true } }),
  deleteMe: strict({}),
  get: strict({ userId: idParam }),
  search: strict({ q: { type: 'string', trim: true, min: 1, max: 64 }, limit: limitParam }),
  getMany: strict({ ids: { type: 'array', items: idParam, max: 1000 } }),
  idsByUsernames: strict({ usernames: { type: 'array', items: { type: 'string', max: 64 }, max: 100 } }),
  isActive: strict({ userId: idParam }),
  setBanned: strict({ userId: idParam, banned: { type: 'boolean' } }),
} as const;
