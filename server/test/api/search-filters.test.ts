import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Message, Panel } from '@im/protocol';
import sharp from 'sharp';
import { expectations, groupWithMembers, startApi, uploadAs, type ApiHarness } from './harness.ts';

type User = Awaited<ReturnType<ApiHarness['user']>>;

/** GET /api/search with filters in q (shared/API.md, "Messages"). */
describe('search filters', () => {
  let api: ApiHarness;
  const { ok, refused } = expectations(() => api);
  let owner: User;
  let member: User;
  let general: string;
  let other: string;
  let dm: string;
  let sent: Record<string, Message>;

  const send = (u: User, converseId: string, body: object) =>
    ok<Message>('POST', `/api/converses/${converseId}/messages`, u, body, 201);
  const search = (u: User, q: string, extra = '') =>
    ok<Message[]>('GET', `/api/search?q=${encodeURIComponent(q)}${extra}`, u);
  const contents = async (u: User, q: string, extra = '') => (await search(u, q, extra)).map((m) => m.content);

  before(async () => {
    api = await startApi(import.meta.url, { DATA_DIR: mkdtempSync(join(tmpdir(), 'im-search-')), STORAGE: 'local' });
    const room = await groupWithMembers(api, 1, 'Filters');
    owner = room.owner;
    member = room.members[0]!;
    general = room.converseId;
    const panel = await ok<Panel>(
      'POST',
      `/api/groups/${room.groupId}/panels`,
      owner,
      {
        name: 'Design Notes',
        type: 'text',
      },
      201,
    );
    other = panel.converseId;
    dm = (await ok<{ id: string }>('POST', '/api/dms', owner, { userId: member.id })).id;
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#3366ff' } })
      .png()
      .toBuffer();
    const picture = await uploadAs(api, member.token, png, 'plan.png');
    const text = await uploadAs(api, owner.token, Buffer.from('minutes of the meeting'), 'minutes.txt');
    sent = {
      ownerGeneral: await send(owner, general, { content: 'plan: owner in general' }),
      memberGeneral: await send(member, general, { content: 'plan: member in general' }),
      memberImage: await send(member, general, { content: 'plan: a picture', attachments: [picture.id] }),
      ownerFile: await send(owner, other, { content: 'plan: the minutes', attachments: [text.id] }),
      ownerLink: await send(owner, other, { content: 'plan: see https://example.org/spec' }),
      dmPlan: await send(member, dm, { content: 'plan: just between us' }),
    };
  });
  after(() => api.close());

  it('keeps a search without filters as it was: the text literally', async () => {
    assert.equal((await search(owner, 'plan:')).length, 6);
    assert.deepEqual(await contents(owner, 'in general'), ['plan: member in general', 'plan: owner in general']);
    // A link is text, though it has a colon.
    assert.deepEqual(await contents(owner, 'https://example.org/spec'), ['plan: see https://example.org/spec']);
  });

  it('from:@user keeps one author’s messages, any case of the name', async () => {
    assert.deepEqual(await contents(owner, `plan from:@${member.username.toUpperCase()}`), [
      'plan: just between us',
      'plan: a picture',
      'plan: member in general',
    ]);
    // Two authors: either of them.
    assert.equal((await search(owner, `from:@${owner.username} from:@${member.username}`)).length, 6);
    // Filters alone are a search too.
    assert.deepEqual(
      (await search(owner, `from:@${owner.username}`)).map((m) => m.id),
      [sent.ownerLink!.id, sent.ownerFile!.id, sent.ownerGeneral!.id],
    );
  });

  it('in:#panel keeps one panel (its name in any case, quoted when it has spaces), in:@user one DM', async () => {
    assert.deepEqual(await contents(owner, 'plan in:#"design notes"'), [
      'plan: see https://example.org/spec',
      'plan: the minutes',
    ]);
    assert.deepEqual(await contents(owner, `plan in:@${member.username}`), ['plan: just between us']);
    assert.deepEqual(await contents(member, `in:@${owner.username}`), ['plan: just between us']);
    assert.equal((await search(owner, 'in:#general')).length, 3);
  });

  it('has:file, has:image and has:link keep messages with one', async () => {
    assert.deepEqual(await contents(owner, 'has:file'), ['plan: the minutes', 'plan: a picture']);
    assert.deepEqual(await contents(owner, 'has:image'), ['plan: a picture']);
    assert.deepEqual(await contents(owner, 'has:link'), ['plan: see https://example.org/spec']);
    assert.deepEqual(await contents(owner, 'has:file has:image from:@' + member.username), ['plan: a picture']);
  });

  it('before:, after: and during: read days in the searcher’s time zone', async () => {
    const at = new Date(sent.ownerGeneral!.createdAt);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const shift = (days: number) => new Date(at.getTime() + days * 86_400_000);
    const count = async (q: string, extra = '') => (await search(owner, q, extra)).length;
    assert.equal(await count(`during:${day(at)}`), 6);
    assert.equal(await count(`during:${day(shift(-1))}`), 0);
    assert.equal(await count(`before:${day(shift(1))}`), 6);
    assert.equal(await count(`before:${day(at)}`), 0);
    assert.equal(await count(`after:${day(shift(-1))}`), 6);
    assert.equal(await count(`after:${day(at)}`), 0);
    // 14 hours east of UTC the messages' moment may be the next day there: the same search then finds them on that day.
    const east = new Date(at.getTime() + 14 * 3_600_000);
    assert.equal(await count(`during:${day(east)}`, '&tzOffset=840'), 6);
    const west = new Date(at.getTime() - 12 * 3_600_000);
    assert.equal(await count(`during:${day(west)}`, '&tzOffset=-720'), 6);
  });

  it('searches only where the caller reads, filters included', async () => {
    const outsider = await api.user('srchout');
    assert.deepEqual(await search(outsider, `from:@${owner.username}`), []);
    await refused('GET', `/api/search?q=${encodeURIComponent('in:#general')}`, outsider, 400, 'IM_ERR_VALIDATION');
  });

  it('refuses a bad filter with a 400 that names it', async () => {
    const bad: Array<[string, RegExp]> = [
      ['from:bob', /from:bob/],
      ['from:@nobody-here', /from:@nobody-here.*no user/],
      [`from:@${'x'.repeat(80)}`, /no user is called/],
      ['from:@"two words"', /no user is called @two words/],
      ['in:#nowhere', /in:#nowhere/],
      ['in:general', /in:general/],
      [`in:@${(await api.user('srchlone')).username}`, /in:@.*no direct messages/],
      ['has:video', /has:video.*file, image, link/],
      ['before:2024-13-01', /before:2024-13-01.*no such day/],
      ['after:yesterday', /after:yesterday.*YYYY-MM-DD/],
      ['during:', /during:.*value/],
      ['before:2024-01-01 before:2024-02-01', /before:2024-02-01.*once/],
    ];
    for (const [q, message] of bad) {
      const body = await refused('GET', `/api/search?q=${encodeURIComponent(q)}`, owner, 400, 'IM_ERR_VALIDATION');
      assert.match(body.error.message, message, q);
    }
    await refused('GET', '/api/search?q=x&tzOffset=900', owner, 400, 'IM_ERR_VALIDATION');
  });
});
