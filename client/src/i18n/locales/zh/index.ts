// The Simplified Chinese catalog: every key of the English one (the type says so; a
// missing key does not compile, and catalogs.test.ts says which).
import type { Catalog } from '../en/index.ts';
import { common } from './common.ts';
import { account } from './account.ts';
import { admin } from './admin.ts';
import { appearance } from './appearance.ts';
import { attention } from './attention.ts';
import { auth } from './auth.ts';
import { calls } from './calls.ts';
import { composer } from './composer.ts';
import { copy } from './copy.ts';
import { errors } from './errors.ts';
import { explore } from './explore.ts';
import { exports } from './exports.ts';
import { format } from './format.ts';
import { groups } from './groups.ts';
import { integrations } from './integrations.ts';
import { join } from './join.ts';
import { keyboard } from './keyboard.ts';
import { moderation } from './moderation.ts';
import { notices } from './notices.ts';
import { offline } from './offline.ts';
import { polls } from './polls.ts';
import { posts } from './posts.ts';
import { push } from './push.ts';
import { roles } from './roles.ts';
import { safety } from './safety.ts';
import { saved } from './saved.ts';
import { scheduled } from './scheduled.ts';
import { search } from './search.ts';
import { shell } from './shell.ts';
import { status } from './status.ts';
import { threads } from './threads.ts';
import { timeline } from './timeline.ts';

export const zh: Catalog = {
  ...common,
  ...account,
  ...admin,
  ...appearance,
  ...attention,
  ...auth,
  ...calls,
  ...composer,
  ...copy,
  ...errors,
  ...explore,
  ...exports,
  ...format,
  ...groups,
  ...integrations,
  ...join,
  ...keyboard,
  ...moderation,
  ...notices,
  ...offline,
  ...polls,
  ...posts,
  ...push,
  ...roles,
  ...safety,
  ...saved,
  ...scheduled,
  ...search,
  ...shell,
  ...status,
  ...threads,
  ...timeline,
};
