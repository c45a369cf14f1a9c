// The Simplified Chinese catalog: every key of the English one (the type says so; a
// missing or extra key does not compile, and catalogs.test.ts says which).
import type { Catalog } from '../en/index.ts';
import { common } from './common.ts';
import { errors } from './errors.ts';
import { auth } from './auth.ts';
import { admin } from './admin.ts';
import { format } from './format.ts';
import { groups } from './groups.ts';
import { explore } from './explore.ts';
import { attention } from './attention.ts';
import { account } from './account.ts';
import { exports } from './exports.ts';
import { status } from './status.ts';
import { saved } from './saved.ts';
import { scheduled } from './scheduled.ts';
import { calls } from './calls.ts';
import { polls } from './polls.ts';
import { posts } from './posts.ts';
import { copy } from './copy.ts';
import { moderation } from './moderation.ts';
import { roles } from './roles.ts';
import { notices } from './notices.ts';

export const zh: Catalog = {
  ...common,
  ...errors,
  ...auth,
  ...admin,
  ...format,
  ...groups,
  ...explore,
  ...attention,
  ...account,
  ...exports,
  ...status,
  ...saved,
  ...scheduled,
  ...calls,
  ...polls,
  ...posts,
  ...copy,
  ...moderation,
  ...roles,
  ...notices,
};
