// Voice and video in the web client, in headless Chromium (with its made-up
// camera and microphone) against the single instance, which starts its own
// livekit-server on loopback: Ann makes a voice panel; Ann and Ben join it by
// clicking it, turn their cameras on and receive each other's sound and
// picture; Cid, who does not join, sees who is in it in the sidebar, and sees
// Ben leave; muted, Cid may only listen. Then Ann calls Ben in their DM: Ben's
// phone and his desktop ring, he accepts on the phone (the desktop stops
// ringing), both are in the call, Ann hangs up, and the DM shows the call's
// record on both sides; Ann calls again, a window Ben opens meanwhile rings too, and Ben declines.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { freePort } from '@im/dev-servers';
import { type Page } from 'playwright-core';
import { api, groupWithMembers, registerAccount, type Account } from './harness/api.ts';
import { describePagesOnFailure } from './harness/app.ts';
import { SHOTS } from './harness/server.ts';
import { webAppStory } from './harness/story.ts';
import { openWindow, type WindowOptions } from './harness/windows.ts';

/** Joining goes through LiveKit's webhooks and ICE on a busy machine: generous, and only ever a deadline. */
const CALL_DEADLINE_MS = 45_000;
const MEDIA: WindowOptions = { permissions: ['microphone', 'camera'] };
const PHONE: WindowOptions = { ...MEDIA, viewport: { width: 390, height: 844 } };

describe('calls in the web client', () => {
  const story = webAppStory(
    import.meta.url,
    async () => ({
      VOICE: 'on',
      LIVEKIT_PORT: String(await freePort()),
      LIVEKIT_RTC_PORT: String(await freePort()),
    }),
    { fakeMedia: true },
  );
  const pages: Record<string, Page> = {};
  const pageErrors: string[] = [];
  const accounts: Record<'ann' | 'ben' | 'cid', Account> = {} as never;
  let ann: Page;
  let ben: Page;
  let cid: Page;

  afterEach(describePagesOnFailure(() => pages));

  /**
   * The errors the pages raised, but for livekit-client's own log lines about
   * a room closed under it on purpose: its data channel closing as the room
   * is left, and its signal connection dropped when the server ends a
   * declined DM call (which may come just before the app's own leaving).
   */
  const LIVEKIT_CLOSING =
    /data channel '\w+' closed unexpectedly|error reading from signal stream .*WS closed unexpectedly/;
  const unexpectedErrors = () => pageErrors.filter((e) => !LIVEKIT_CLOSING.test(e));

  const open = (account: Account, label: string, path: string, options: WindowOptions = MEDIA) =>
    openWindow(story, { pages, errors: pageErrors }, label, account, path, options);

  /** The names in the sidebar's list under the voice panel, as `page` shows them. */
  const rosterNames = (page: Page) => page.getByTestId('call-roster-name').allInnerTexts();
  const waitForRoster = async (page: Page, names: string[]) => {
    await page.waitForFunction(
      (expected) =>
        JSON.stringify(
          Array.from(document.querySelectorAll('[data-testid="call-roster-name"]'))
            .map((el) => (el as HTMLElement).innerText.trim())
            .sort(),
        ) === JSON.stringify(expected),
      [...names].sort(),
      { timeout: CALL_DEADLINE_MS },
    );
  };

  /** The other person's picture plays (its <video> has a size) and their voice's track is live. */
  const receivesFrom = async (page: Page, other: Account) => {
    await page.waitForFunction(
      (userId) => {
        const video = document.querySelector<HTMLVideoElement>(
          `[data-testid="call-tile"][data-user-id="${userId}"] video[data-testid="remote-video"]`,
        );
        const audio = document.querySelector<HTMLAudioElement>(
          `audio[data-testid="remote-audio"][data-user-id="${userId}"]`,
        );
        const track = (audio?.srcObject as MediaStream | null)?.getAudioTracks()[0];
        return video !== null && video.videoWidth > 0 && track?.readyState === 'live';
      },
      other.id,
      { timeout: CALL_DEADLINE_MS },
    );
  };

  const phase = (page: Page) => page.getByTestId('call-phase');

  it('Ann and Ben join a voice panel by clicking it and see and hear each other; Cid sees who is in it, then listens muted', async () => {
    const base = story.server.base;
    accounts.ann = await registerAccount(base, 'ann');
    accounts.ben = await registerAccount(base, 'ben');
    accounts.cid = await registerAccount(base, 'cid');
    const { groupId, converseId } = await groupWithMembers(base, accounts.ann, 'Studio', [accounts.ben, accounts.cid]);
    const general = `/g/${groupId}/${converseId}`;
    ann = await open(accounts.ann, 'ann', general);
    ben = await open(accounts.ben, 'ben', general);
    cid = await open(accounts.cid, 'cid', general);

    // Ann, the owner, makes a voice panel with the panel dialog's Voice choice.
    await ann.getByRole('button', { name: 'Studio: group menu' }).click();
    await ann.getByRole('menuitem', { name: 'Create panel' }).click();
    const dialog = ann.getByRole('dialog', { name: 'Create a panel' });
    await dialog.getByRole('radio', { name: /^Voice/ }).check();
    await dialog.getByLabel('Panel name').fill('lounge');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await ann.getByTestId('voice-lobby').waitFor();
    const loungeLink = (page: Page) => page.getByTestId('panel-link').filter({ hasText: 'lounge' });
    for (const page of [ben, cid]) await loungeLink(page).waitFor();

    // Joining is a click on the panel; the camera is off at first.
    for (const page of [ann, ben]) {
      await loungeLink(page).click();
      await phase(page).filter({ hasText: 'In the call' }).waitFor({ timeout: CALL_DEADLINE_MS });
      await page.getByRole('button', { name: 'Mute microphone' }).waitFor();
    }
    for (const page of [ann, ben, cid]) await waitForRoster(page, ['ann', 'ben']);

    for (const page of [ann, ben]) await page.getByRole('button', { name: 'Turn camera on' }).click();
    for (const page of [ann, ben]) await page.getByRole('button', { name: 'Turn camera off' }).waitFor();
    await receivesFrom(ann, accounts.ben);
    await receivesFrom(ben, accounts.ann);
    assert.equal(await ann.getByTestId('call-tile').count(), 2);
    assert.equal(await ben.getByTestId('call-tile').count(), 2);
    const annOnBen = ben.locator(`[data-testid="call-tile"][data-user-id="${accounts.ann.id}"]`);
    // Cid, who did not join, has no call of his own, and sees the list live.
    assert.equal(await cid.getByTestId('call-bar').count(), 0);
    assert.deepEqual((await rosterNames(cid)).map((n) => n.trim()).sort(), ['ann', 'ben']);
    await ann.screenshot({ path: join(SHOTS, 'voice-panel.png') });

    // The devices Chromium lists can be chosen; Ann mutes, and Ben's tile of her says so.
    await ann.getByRole('button', { name: 'Devices' }).click();
    const devices = ann.getByRole('dialog', { name: 'Devices' });
    await devices.getByLabel('Microphone').waitFor();
    await devices.getByLabel('Camera').waitFor();
    await ann.screenshot({ path: join(SHOTS, 'call-devices.png') });
    await ann.keyboard.press('Escape');
    await ann.getByRole('button', { name: 'Mute microphone' }).click();
    await ann.getByRole('button', { name: 'Unmute microphone' }).waitFor();
    await annOnBen.getByTestId('tile-muted').waitFor({ timeout: CALL_DEADLINE_MS });

    // Ben leaves: his call bar goes, and Ann and Cid see him gone.
    await ben.getByRole('button', { name: 'Leave call' }).click();
    await ben.getByTestId('call-bar').waitFor({ state: 'detached' });
    for (const page of [ann, cid]) await waitForRoster(page, ['ann']);
    await ann
      .locator(`[data-testid="call-tile"][data-user-id="${accounts.ben.id}"]`)
      .waitFor({ state: 'detached', timeout: CALL_DEADLINE_MS });
    await ann.getByRole('button', { name: 'Leave call' }).click();
    for (const page of [ann, ben, cid]) await waitForRoster(page, []);

    // Muted in the group, Cid may join but only listen: the bar says so and offers no microphone.
    await api(base, accounts.ann.token, 'PUT', `/api/groups/${groupId}/members/${accounts.cid.id}/mute`, {
      seconds: 600,
    });
    await loungeLink(cid).click();
    await phase(cid).filter({ hasText: 'In the call' }).waitFor({ timeout: CALL_DEADLINE_MS });
    await cid.getByTestId('listen-only').filter({ hasText: 'Listening only' }).waitFor();
    assert.equal(await cid.getByRole('button', { name: /microphone/ }).count(), 0);
    await waitForRoster(ann, ['cid']);
    await cid.screenshot({ path: join(SHOTS, 'voice-listening-only.png') });

    // Rights change mid-call: unmuted, Cid may speak at once; muted again, he is back to listening
    // only; unmuted once more he may speak, and his bar says what his tile shows of his microphone.
    const muteCid = (seconds: number) =>
      api(base, accounts.ann.token, 'PUT', `/api/groups/${groupId}/members/${accounts.cid.id}/mute`, { seconds });
    await muteCid(0);
    await cid.getByRole('button', { name: 'Unmute microphone' }).click({ timeout: CALL_DEADLINE_MS });
    await cid.getByRole('button', { name: 'Mute microphone' }).waitFor();
    await muteCid(600);
    await cid.getByTestId('listen-only').filter({ hasText: 'Listening only' }).waitFor({ timeout: CALL_DEADLINE_MS });
    await muteCid(0);
    const micButton = cid.getByRole('button', { name: /^(Mute|Unmute) microphone$/ });
    await micButton.waitFor({ timeout: CALL_DEADLINE_MS });
    await cid.waitForFunction(
      (userId) => {
        const label = document.querySelector('[aria-label$=" microphone"]')?.getAttribute('aria-label');
        const mutedMark = document.querySelector(
          `[data-testid="call-tile"][data-user-id="${userId}"] [data-testid="tile-muted"]`,
        );
        return (label === 'Unmute microphone') === (mutedMark !== null);
      },
      accounts.cid.id,
      { timeout: CALL_DEADLINE_MS },
    );
    await cid.getByRole('button', { name: 'Leave call' }).click();
    for (const page of [ann, cid]) await waitForRoster(page, []);
    assert.deepEqual(unexpectedErrors(), []);
  });

  it('Ann calls Ben in their DM: both his windows ring, he accepts on his phone; then he declines; the DM records both', async () => {
    const base = story.server.base;
    const dm = await api<{ id: string }>(base, accounts.ann.token, 'POST', '/api/dms', { userId: accounts.ben.id });
    await ann.goto(`${base}/dm/${dm.id}`);
    await ann.getByTestId('converse-title').filter({ hasText: 'ben' }).waitFor();
    const benPhone = await open(accounts.ben, 'ben-phone', '/', PHONE);

    await ann.getByRole('button', { name: 'Start a call' }).click();
    await phase(ann).filter({ hasText: 'Calling…' }).waitFor({ timeout: CALL_DEADLINE_MS });
    for (const page of [ben, benPhone]) {
      await page
        .getByTestId('incoming-call')
        .filter({ hasText: 'ann is calling you' })
        .waitFor({ timeout: CALL_DEADLINE_MS });
    }
    await benPhone.screenshot({ path: join(SHOTS, 'incoming-call-phone.png') });
    await benPhone.getByRole('button', { name: 'Accept' }).click();

    // Answered on the phone: the desktop stops ringing; both are in the call and see each other's tile.
    await ben.getByTestId('incoming-call').waitFor({ state: 'detached', timeout: CALL_DEADLINE_MS });
    for (const page of [ann, benPhone]) {
      await phase(page).filter({ hasText: 'In the call' }).waitFor({ timeout: CALL_DEADLINE_MS });
      await page.getByTestId('dm-call').getByTestId('call-tile').nth(1).waitFor({ timeout: CALL_DEADLINE_MS });
    }
    await ann.getByRole('button', { name: 'Turn camera on' }).click();
    await benPhone.waitForFunction(
      (userId) =>
        (document.querySelector<HTMLVideoElement>(
          `[data-testid="call-tile"][data-user-id="${userId}"] video[data-testid="remote-video"]`,
        )?.videoWidth ?? 0) > 0,
      accounts.ann.id,
      { timeout: CALL_DEADLINE_MS },
    );
    await benPhone.screenshot({ path: join(SHOTS, 'dm-call-phone.png') });
    await ann.screenshot({ path: join(SHOTS, 'dm-call.png') });

    // Ann hangs up: Ben's call ends too, and the DM shows one record of a call that ended, on both sides.
    await ann.getByRole('button', { name: 'Leave call' }).click();
    await benPhone.getByTestId('call-bar').waitFor({ state: 'detached', timeout: CALL_DEADLINE_MS });
    for (const page of [ann, benPhone]) {
      const record = page.getByTestId('call-record');
      await record.waitFor({ timeout: CALL_DEADLINE_MS });
      assert.equal(await record.getAttribute('data-outcome'), 'ended');
      assert.match(await record.innerText(), /Call ended · \d+ (s|min)/);
    }

    // Ann calls again; Ben declines on his phone: Ann's app says so and hangs up, and the DM records it.
    await ann.getByRole('button', { name: 'Start a call' }).click();
    await benPhone.getByTestId('incoming-call').waitFor({ timeout: CALL_DEADLINE_MS });
    // A window Ben opens while it rings rings too: the app asks what rings for him when it connects.
    const benLate = await open(accounts.ben, 'ben-late', '/');
    await benLate
      .getByTestId('incoming-call')
      .filter({ hasText: 'ann is calling you' })
      .waitFor({ timeout: CALL_DEADLINE_MS });
    await benPhone.getByRole('button', { name: 'Decline' }).click();
    await phase(ann).filter({ hasText: 'Declined' }).waitFor({ timeout: CALL_DEADLINE_MS });
    for (const page of [ben, benLate])
      await page.getByTestId('incoming-call').waitFor({ state: 'detached', timeout: CALL_DEADLINE_MS });
    for (const page of [ann, benPhone]) {
      await page.locator('[data-testid="call-record"][data-outcome="declined"]').waitFor({ timeout: CALL_DEADLINE_MS });
    }
    await ann.getByRole('button', { name: 'Close' }).click();
    await ann.getByTestId('call-bar').waitFor({ state: 'detached' });
    assert.deepEqual(unexpectedErrors(), []);
  });
});
