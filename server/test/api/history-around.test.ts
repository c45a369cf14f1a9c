import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Group, Message } from '@im/protocol';
import { apiSuite } from '../support/api-suite.ts';
import { type ApiHarness } from './harness.ts';

type Err = { error: { code: string; message: string } };

describe('history around a message', () => {
  const { api } = apiSuite(import.meta.url);
  let owner: Awaited<ReturnType<ApiHarness['user']>>;
  let converseId: string;
  /** Messages in the shared converse: seqs 1..TOTAL. */
  const TOTAL = 30;

  before(async () => {
    owner = await api.user('own');
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Around' } }))
      .body;
    converseId = group.panels[0]!.converseId;
    for (let i = 1; i <= TOTAL; i += 1) {
      const sent = await api.request<Message>('POST', `/api/converses/${converseId}/messages`, {
        token: owner.token,
        body: { content: `message ${i}` },
      });
      assert.equal(sent.status, 201);
    }
  });

  const around = (query: string, token = owner.token) =>
    api.request<Message[]>('GET', `/api/converses/${converseId}/messages?${query}`, { token });
  const seqs = (page: Message[]) => page.map((m) => m.seq);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  it('gives the page centred on the seq, in seq order', async () => {
    const res = await around('around=15&limit=10');
    assert.equal(res.status, 200);
    // Half at or below the seq, the rest above.
    assert.deepEqual(seqs(res.body), range(11, 20));
    assert.equal(res.body.find((m) => m.seq === 15)?.content, 'message 15');
    // With an odd limit, the larger half is at or below it.
    assert.deepEqual(seqs((await around('around=15&limit=5')).body), range(13, 17));
  });

  it('fills the page from the other side near the start and the end', async () => {
    assert.deepEqual(seqs((await around('around=2&limit=10')).body), range(1, 10));
    assert.deepEqual(seqs((await around('around=29&limit=10')).body), range(21, 30));
    assert.deepEqual(seqs((await around('around=1&limit=100')).body), range(1, TOTAL));
  });

  it('gives the newest page for a seq beyond the end', async () => {
    assert.deepEqual(seqs((await around('around=1000&limit=10')).body), range(21, 30));
  });

  it('uses the default page size without a limit', async () => {
    assert.deepEqual(seqs((await around('around=3')).body), range(1, TOTAL));
  });

  it('refuses around with before or after, and a seq that is not a positive integer', async () => {
    for (const query of [
      'around=10&before=20',
      'around=10&after=2',
      'around=0',
      'around=-3',
      'around=1.5',
      'around=x',
    ]) {
      const res = await around(query);
      assert.equal(res.status, 400, query);
      assert.equal((res.body as unknown as Err).error.code, 'IM_ERR_VALIDATION', query);
    }
  });

  it('takes before and after together (the messages between), as the document says; around only alone', async () => {
    // The document declares them as one parameter: before and after, or around (oneOf).
    const between = await around('after=10&before=15&limit=100');
    assert.equal(between.status, 200);
    assert.deepEqual(seqs(between.body), range(11, 14));
    const all = await around('before=20&after=10&around=15');
    assert.equal(all.status, 400);
    assert.equal((all.body as unknown as Err).error.code, 'IM_ERR_VALIDATION');
  });

  it('keeps outsiders out with a 404', async () => {
    const outsider = await api.user('out');
    const res = await around('around=10', outsider.token);
    assert.equal(res.status, 404);
    assert.equal((res.body as unknown as Err).error.code, 'IM_ERR_NOT_FOUND');
  });
});
