// The English catalog: the source of every key. One file per area of the app,
// each spread in here.
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

export const en = {
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

export type MessageKey = keyof typeof en;
/** A catalog of another language: every key of the English one, no other. */
export type Catalog = Record<MessageKey, string>;
