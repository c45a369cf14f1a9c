// The German catalog: every key of the English one (the type says so; a
// missing key does not compile, and catalogs.test.ts says which).
import type { Catalog } from '../en/index.ts';
import { common } from './common.ts';
import { account } from './account.ts';
import { appearance } from './appearance.ts';
import { composer } from './composer.ts';
import { join } from './join.ts';
import { keyboard } from './keyboard.ts';
import { offline } from './offline.ts';
import { push } from './push.ts';
import { safety } from './safety.ts';
import { search } from './search.ts';
import { shell } from './shell.ts';
import { threads } from './threads.ts';
import { timeline } from './timeline.ts';

export const de: Catalog = {
  ...common,
  ...account,
  ...appearance,
  ...composer,
  ...join,
  ...keyboard,
  ...offline,
  ...push,
  ...safety,
  ...search,
  ...shell,
  ...threads,
  ...timeline,
};
