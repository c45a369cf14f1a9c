import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DmConverse, DmList, Group } from '@im/protocol';
import { Types } from 'mongoose';
import { apiSuite, type ApiUser as User } from '../support/api-suite.ts';

type Err = { error: { code: string } };

/** GET /api/dms (extension): the caller's DMs, most recently active first. */
describe('GET /api/dms', () => {
  const { api } = apiSuite(import.meta.url);

  const list = async (user: User) => {
    const res = await api.request<DmList>('GET', '/api/dms', { token: user.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const open = async (user: User, other: User) => {
    const res = await api.request<DmConverse>('POST', '/api/dms', { token: user.token, body: { userId: other.id } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const send = async (user: User, converseId: string) => {
    const res = await api.request('POST', `/api/converses/${converseId}/messages`, {
      token: user.token,
      body: { content: 'hi' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  };
  // Activity times are milliseconds: keep each step in a later one.
  const tick = () => new Promise((r) => setTimeout(r, 5));

  it('is empty for a user without DMs, and refuses query parameters and missing tokens', async () => {
    const lonely = await api.user('lone');
    assert.deepEqual(await list(lonely), []);
    const bad = await api.request<Err>('GET', '/api/dms?limit=5', { token: lonely.token });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'IM_ERR_VALIDATION');
    assert.equal((await api.request('GET', '/api/dms')).status, 401);
    const self = await api.request<Err>('POST', '/api/dms', { token: lonely.token, body: { userId: lonely.id } });
    assert.equal(self.status, 403);
    assert.equal(self.body.error.code, 'IM_ERR_FORBIDDEN');
  });

  it('lists a DM for both its members, in the shape POST /api/dms answers, and for no one else', async () => {
    const a = await api.user('dla');
    const b = await api.user('dlb');
    const outsider = await api.user('dlo');
    const ab = await open(a, b);
    assert.deepEqual(await list(a), [ab]);
    assert.deepEqual(await list(b), [ab]);
    assert.deepEqual(await list(outsider), []);
    // Group converses are not DMs, whatever happens in them.
    const group = (await api.request<Group>('POST', '/api/groups', { token: a.token, body: { name: 'G' } })).body;
    await send(a, group.panels[0]!.converseId);
    assert.deepEqual(await list(a), [ab]);
  });

  it('orders by the latest message, else by when the DM was opened, newest first', async () => {
    const a = await api.user('doa');
    const [b, c, d] = [await api.user('dob'), await api.user('doc'), await api.user('dod')];
    const ab = await open(a, b);
    await tick();
    const ac = await open(a, c);
    await tick();
    const ad = await open(d, a); // opened from the other side
    const ids = async (u: User) => (await list(u)).map((dm) => dm.id);
    assert.deepEqual(await ids(a), [ad.id, ac.id, ab.id]);

    await tick();
    await send(a, ab.id);
    assert.deepEqual(await ids(a), [ab.id, ad.id, ac.id]);
    await tick();
    await send(c, ac.id); // the other member's message counts too
    assert.deepEqual(await ids(a), [ac.id, ab.id, ad.id]);
    await tick();
    // Opening an existing DM again is not activity.
    assert.equal((await open(a, d)).id, ad.id);
    assert.deepEqual(await ids(a), [ac.id, ab.id, ad.id]);
    await tick();
    await send(d, ad.id);
    assert.deepEqual(await ids(a), [ad.id, ac.id, ab.id]);
    assert.deepEqual(await ids(b), [ab.id]);
    assert.deepEqual(await ids(c), [ac.id]);
  });

  it('lists the 1,000 most recently active, and DMs stored without an opening time', async () => {
    const a = await api.user('dca');
    const me = new Types.ObjectId(a.id);
    const base = Date.now() - 10_000_000;
    const converses = api.node.app.mongo!.collection('converses');
    // Written directly: 1,005 DMs, activity one second apart; the oldest five must be left out.
    const docs = Array.from({ length: 1005 }, (_, i) => {
      const other = new Types.ObjectId();
      const members = [me, other].sort((x, y) => x.toHexString().localeCompare(y.toHexString()));
      return {
        _id: new Types.ObjectId(),
        type: 'dm',
        memberIds: members,
        dmKey: members.map(String).join(':'),
        lastSeq: 1,
        lastMessageAt: new Date(base + i * 1000),
      };
    });
    await converses.insertMany(docs);
    const listed = await list(a);
    assert.equal(listed.length, 1000);
    assert.deepEqual(
      listed.map((dm) => dm.id),
      docs
        .slice(5)
        .reverse()
        .map((d) => d._id.toHexString()),
    );
    assert.deepEqual(listed[0], {
      id: docs[1004]!._id.toHexString(),
      type: 'dm',
      memberIds: docs[1004]!.memberIds.map(String),
    });

    // DMs stored before opening times were recorded: the time in their id counts (written directly,
    // since the dev server's own upsert ids carry no time).
    const b = await api.user('dcb');
    const fresh = await open(b, await api.user('dcc'));
    const seconds = Math.floor(Date.now() / 1000);
    const mine = new Types.ObjectId(b.id);
    const legacy = (secondsAgo: number, lastMessageAt?: Date) => {
      const other = new Types.ObjectId();
      return {
        _id: Types.ObjectId.createFromTime(seconds - secondsAgo),
        type: 'dm',
        memberIds: [mine, other],
        dmKey: `${b.id}:${other.toHexString()}`,
        lastSeq: lastMessageAt ? 1 : 0,
        ...(lastMessageAt ? { lastMessageAt } : {}),
      };
    };
    const older = legacy(120);
    const old = legacy(60);
    const talked = legacy(300, new Date((seconds - 90) * 1000));
    await converses.insertMany([older, old, talked]);
    assert.deepEqual(
      (await list(b)).map((dm) => dm.id),
      [fresh.id, old._id.toHexString(), talked._id.toHexString(), older._id.toHexString()],
    );
  });
});
