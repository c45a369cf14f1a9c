import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { isPublicAddress, OutboundGuard, OutboundRefusedError, toHttpError, type Lookup } from '../src/index.ts';

/** A real HTTP receiver on loopback that counts what reaches it. */
class Receiver {
  hits = 0;
  reply: (res: ServerResponse) => void = (res) => res.end('ok');
  readonly server: Server = createServer((_req, res) => {
    this.hits += 1;
    this.reply(res);
  });
  port = 0;
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }
  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const refused = (err: unknown) => err instanceof OutboundRefusedError;

describe('outbound guard', () => {
  const receiver = new Receiver();
  const guards: OutboundGuard[] = [];
  const guard = (allow: string[] = [], extra: { lookup?: Lookup; timeoutMs?: number } = {}) => {
    const g = new OutboundGuard({
      allow,
      timeoutMs: extra.timeoutMs ?? 2_000,
      ...(extra.lookup ? { lookup: extra.lookup } : {}),
    });
    guards.push(g);
    return g;
  };
  before(() => receiver.start());
  after(async () => {
    await Promise.all(guards.map((g) => g.close()));
    await receiver.stop();
  });

  it('tells public addresses from every inside range, IPv6 forms included', () => {
    for (const ip of ['8.8.8.8', '2001:4860:4860::8888', '::ffff:8.8.8.8']) assert.ok(isPublicAddress(ip), ip);
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      'not-an-ip',
    ])
      assert.ok(!isPublicAddress(ip), ip);
  });

  it('refuses inside destinations before any request reaches them', async () => {
    const g = guard();
    for (const url of [
      `http://127.0.0.1:${receiver.port}/`,
      `http://localhost:${receiver.port}/`,
      `http://[::ffff:127.0.0.1]:${receiver.port}/`,
      'http://[::1]:9/',
      'http://169.254.169.254/',
      'http://10.1.2.3/',
    ])
      await assert.rejects(g.request(new URL(url)), refused, url);
    await assert.rejects(g.request(new URL('ftp://example.org/')), refused);
    assert.equal(receiver.hits, 0);
  });

  it('lets OUTBOUND_ALLOW name private destinations by IP, by CIDR and by host name', async () => {
    const before = receiver.hits;
    assert.equal((await guard(['127.0.0.1']).request(new URL(`http://127.0.0.1:${receiver.port}/`))).status, 200);
    assert.equal((await guard(['127.0.0.0/8']).request(new URL(`http://127.0.0.1:${receiver.port}/`))).status, 200);
    assert.equal((await guard(['localhost']).request(new URL(`http://localhost:${receiver.port}/`))).status, 200);
    assert.equal(receiver.hits, before + 3);
    // Allowing one range does not open another.
    await assert.rejects(guard(['10.0.0.0/8']).request(new URL(`http://127.0.0.1:${receiver.port}/`)), refused);
  });

  it('checks the address actually connected to: a name that rebinds to loopback after the check is refused', async () => {
    let answers = 0;
    // A DNS server that answers a public address first and loopback afterwards.
    const rebinding: Lookup = (_host, _options, callback) => {
      answers += 1;
      callback(null, [{ address: answers === 1 ? '93.184.215.14' : '127.0.0.1', family: 4 }]);
    };
    const g = guard([], { lookup: rebinding });
    const url = `http://rebind.example:${receiver.port}/`;
    await g.check(url); // registration saw a public address
    const before = receiver.hits;
    await assert.rejects(g.request(new URL(url)), refused);
    assert.equal(receiver.hits, before);
  });

  it('refuses at registration IP literals and names that resolve inside, with a 400', async () => {
    const g = guard();
    for (const url of [
      'http://127.0.0.1/',
      'https://[fe80::1]/',
      'http://localhost/',
      'javascript:alert(1)',
      'not a url',
      'https://u:p@example.org/',
    ])
      await assert.rejects(
        g.check(url, 'endpoint'),
        (err: unknown) => {
          const { status, body } = toHttpError(err);
          return status === 400 && body.error.code === 'IM_ERR_VALIDATION' && body.error.message.startsWith('endpoint');
        },
        url,
      );
    await g.check('http://8.8.8.8/');
  });

  it('follows no redirects, caps the body and times out', async () => {
    const g = guard(['127.0.0.1'], { timeoutMs: 300 });
    receiver.reply = (res) => res.writeHead(302, { location: 'http://169.254.169.254/' }).end('x'.repeat(100_000));
    const moved = await g.request(new URL(`http://127.0.0.1:${receiver.port}/`), { maxBytes: 1_000 });
    assert.equal(moved.status, 302);
    assert.equal(moved.body.length, 1_000);
    receiver.reply = () => undefined; // never answers
    const started = Date.now();
    await assert.rejects(g.request(new URL(`http://127.0.0.1:${receiver.port}/slow`)), (err: unknown) => !refused(err));
    assert.ok(Date.now() - started < 2_000, 'gave up on time');
    receiver.reply = (res) => res.end('ok');
  });
});
