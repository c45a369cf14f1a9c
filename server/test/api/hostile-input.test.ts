import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import type { Group, Invite } from '@im/protocol';
import { API_ENDPOINTS } from '@im/gateway/endpoints';
import { apiSuite } from '../support/api-suite.ts';
import { type ApiHarness } from './harness.ts';

/**
 * Every route, fed malformed bodies and NoSQL-operator payloads, answers a
 * 4xx from the catalog, and the database is byte-for-byte unchanged.
 */
describe('every API route rejects hostile input and writes nothing', () => {
  const { api } = apiSuite(import.meta.url);
  let owner: Awaited<ReturnType<ApiHarness['user']>>;
  let ids: Record<string, string>;

  const snapshot = async () => {
    const db = api.node.app.mongo!.db!;
    const hash = createHash('sha256');
    for (const { name } of (await db.listCollections().toArray()).sort((a, b) => a.name.localeCompare(b.name))) {
      const docs = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
      // When a session was last seen is flushed every 30 s whatever the requests were: not a write of theirs.
      if (name === 'sessions') for (const doc of docs) delete doc.lastSeenAt;
      hash.update(name).update(JSON.stringify(docs));
    }
    return hash.digest('hex');
  };

  before(async () => {
    owner = await api.user();
    const other = await api.user();
    const group = (await api.request<Group>('POST', '/api/groups', { token: owner.token, body: { name: 'Target' } }))
      .body;
    const invite = (
      await api.request<Invite>('POST', `/api/groups/${group.id}/invites`, { token: owner.token, body: {} })
    ).body;
    await api.request('POST', `/api/invites/${invite.code}/accept`, { token: other.token });
    const converseId = group.panels[0]!.converseId;
    const message = (
      await api.request<{ id: string }>('POST', `/api/converses/${converseId}/messages`, {
        token: owner.token,
        body: { content: 'hello' },
      })
    ).body;
    ids = {
      groupId: group.id,
      userId: other.id,
      panelId: group.panels[0]!.id,
      code: invite.code,
      converseId,
      messageId: message.id,
      emoji: '👍',
    };
  });

  const pathFor = (path: string, override?: [string, string]) =>
    path.replace(/:([A-Za-z]+)/g, (_, name: string) =>
      encodeURIComponent(override?.[0] === name ? override[1] : ids[name]!),
    );

  const fieldsOf = (params: Record<string, unknown>, path: string) =>
    Object.keys(params).filter((k) => !k.startsWith('$$') && !path.includes(`:${k}`));

  // Routes that take no input at all (GET /api/users/me, ...) have nothing to attack here.
  const withInput = API_ENDPOINTS.filter((r) => r.input !== 'none' || r.path.includes(':'));
  assert.ok(withInput.length >= 15);

  for (const route of withInput) {
    it(`${route.method} ${route.path}`, async () => {
      const before = await snapshot();
      const token = route.auth ? owner.token : undefined;
      const attempts: Array<{ path: string; raw?: string; query?: string; contentType?: string }> = [];
      const fields = fieldsOf(route.params, route.path);

      if (route.input === 'body') {
        attempts.push({ path: pathFor(route.path), raw: '{"oops": ' });
        attempts.push({ path: pathFor(route.path), raw: '"just a string"' });
        attempts.push({ path: pathFor(route.path), raw: '[]' });
        attempts.push({ path: pathFor(route.path), raw: JSON.stringify({ $where: 'sleep(1000)' }) });
        attempts.push({ path: pathFor(route.path), raw: 'name=x', contentType: 'application/x-www-form-urlencoded' });
        for (const field of fields) {
          attempts.push({ path: pathFor(route.path), raw: JSON.stringify({ [field]: { $gt: '' } }) });
          attempts.push({ path: pathFor(route.path), raw: JSON.stringify({ [field]: ['array'] }) });
          attempts.push({ path: pathFor(route.path), raw: JSON.stringify({ [field]: 'x'.repeat(5000) }) });
        }
      }
      if (route.input === 'query') {
        for (const field of fields) {
          attempts.push({ path: pathFor(route.path), query: `${field}[$gt]=&${field}=${'x'.repeat(5000)}` });
        }
        attempts.push({ path: pathFor(route.path), query: 'unexpected=1' });
      }
      for (const name of [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!)) {
        attempts.push({ path: pathFor(route.path, [name, '{"$gt":""}']) });
        attempts.push({ path: pathFor(route.path, [name, 'x'.repeat(100)]) });
      }

      for (const attempt of attempts) {
        const url = attempt.query ? `${attempt.path}?${attempt.query}` : attempt.path;
        const what = `${route.method} ${url} ${attempt.raw?.slice(0, 80) ?? ''}`;
        if (route.produces === 'text/html') {
          // A page: a path that names no public panel answers the not-found page, anything else the catalog's JSON.
          const res = await fetch(api.base + url);
          if (res.headers.get('content-type')?.startsWith('text/html')) {
            assert.equal(res.status, 404, what);
            await res.text();
          } else {
            assert.ok(res.status >= 400 && res.status < 500, `${what} answered ${res.status}`);
            assert.match(((await res.json()) as { error: { code: string } }).error.code, /^IM_ERR_/, what);
          }
          continue;
        }
        const res = await api.request<{ error?: { code?: string } }>(route.method, url, {
          ...(token ? { token } : {}),
          ...(attempt.raw !== undefined
            ? { raw: attempt.raw, headers: { 'content-type': attempt.contentType ?? 'application/json' } }
            : {}),
        });
        assert.ok(res.status >= 400 && res.status < 500, `${what} answered ${res.status}`);
        // A path id that cannot match anything may be a 404; everything else is a 400-family refusal.
        assert.match(res.body?.error?.code ?? '', /^IM_ERR_/, what);
      }
      assert.equal(await snapshot(), before, `${route.method} ${route.path} changed the database`);
    });
  }
});
