// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { moduleState, sourceFiles } from '../test/module-state.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Module-level state that is not the signed-in account's, each with why. Any
 * other state a module keeps must be forgotten at sign-out
 * (forgetOnSignOut, or a store, Map or Set made with accountStore, accountMap or accountSet).
 */
const NOT_ACCOUNT_STATE: Record<string, string> = {
  'api/http.ts#http': "the session's token: session.ts ends the session (setToken(null)) at every sign-out",
  'state/account-state.ts#registry': 'the registry itself',
  'components/auth/VerifyEmailPage.tsx#verifications': "an e-mailed link's token, redeemed once per page load",
  'components/common/Dialog.tsx#open': 'the dialogs mounted now: they unmount with the signed-in screen',
  'components/common/useMenu.ts#closeOpenMenu': 'the menu mounted now: it unmounts with the signed-in screen',
  'components/emoji/CustomEmojiContext.tsx#CUSTOM': 'a pattern',
  'components/emoji/CustomEmojiContext.tsx#IN_TEXT': 'a pattern',
  'components/emoji/CustomEmojiContext.tsx#VERBATIM': 'a pattern',
  'components/emoji/EmojiPicker.tsx#data': "the Unicode emoji data set, the app's own",
  'components/groups/settings/EmojiTab.tsx#NAME': 'a pattern',
  'components/groups/settings/UserGroupsTab.tsx#HANDLE': 'a pattern',
  'components/messages/Composer.tsx#nextLocalId': 'a counter that keeps ids unique in the page',
  'components/messages/format.ts#made': 'the date formats of each language, made once',
  'api/errors.ts#ALWAYS_OURS': 'a constant set',
  'components/messages/markdown/CodeBlock.tsx#loading': "the syntax highlighter's code, loaded once",
  'components/messages/markdown/render.tsx#TAGS': 'a constant set',
  'offline/service-worker.ts#updateReady': "a newer version of the app is ready: the browser's, not the account's",
  'state/messages.ts#counter': 'a counter that keeps client message ids unique in the page',
  'state/sso.ts#landing': "the page load's return from single sign-on, read once before any session starts",
  'state/sso.ts#redemption': "the page load's single sign-on code, redeemed once",
  'state/sso.ts#settled': "the page load's single sign-on return, handled once",
  'state/store.ts#noticeId': 'a counter that keeps notice ids unique in the page',
  'state/upload-limit.ts#known': "the server's upload limit, the same for every account",
  'state/upload-limit.ts#asking': "the server's upload limit, the same for every account",
};

describe('state kept by the web app across calls', () => {
  const found = sourceFiles(ROOT).flatMap((file) => moduleState(file, ROOT));

  it('is forgotten at sign-out, unless it is listed as not the account’s', () => {
    const unregistered = found.filter((s) => !s.forgotten && !(s.id in NOT_ACCOUNT_STATE)).map((s) => s.id);
    expect(
      unregistered,
      'register these with forgetOnSignOut (or make them with accountStore, accountMap or accountSet)',
    ).toEqual([]);
  });

  it('lists only state that still exists and is not forgotten anyway', () => {
    const kept = new Set(found.filter((s) => !s.forgotten).map((s) => s.id));
    expect(Object.keys(NOT_ACCOUNT_STATE).filter((id) => !kept.has(id))).toEqual([]);
  });

  it('finds state in every form a module keeps it', () => {
    // The check finds what it must: the main store, a Map of a cache, a mutable binding, a store of its own.
    const ids = new Set(found.map((s) => s.id));
    for (const id of [
      'state/store.ts#useStore',
      'state/file-urls.ts#cache',
      'state/users.ts#scheduled',
      'state/thread-store.ts#useThreads',
      'state/conversations.ts#view',
    ]) {
      expect(ids).toContain(id);
    }
  });
});
