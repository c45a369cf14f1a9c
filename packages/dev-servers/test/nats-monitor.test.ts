import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { startNats } from '../src/index.ts';

/** Publishes one message with a raw client (the protocol is plain text); the server's PONG says it was processed. */
async function publishOnce(port: number, payload: string): Promise<void> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  let sent = false;
  await new Promise<void>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      received += chunk.toString();
      if (!sent && received.startsWith('INFO')) {
        sent = true;
        socket.write(`CONNECT {"verbose":false}\r\nPUB bench.test ${payload.length}\r\n${payload}\r\nPING\r\n`);
      }
      if (received.includes('PONG')) resolve();
    });
  });
  socket.destroy();
}

describe('NATS dev server', () => {
  it('serves its monitoring endpoint when asked, and /varz counts what clients published', async () => {
    const nats = await startNats({ monitor: true });
    try {
      assert.match(nats.monitorUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
      const before = (await (await fetch(`${nats.monitorUrl}/varz`)).json()) as { in_msgs: number; in_bytes: number };
      await publishOnce(nats.port, 'hello');
      const after = (await (await fetch(`${nats.monitorUrl}/varz`)).json()) as { in_msgs: number; in_bytes: number };
      assert.equal(after.in_msgs - before.in_msgs, 1);
      assert.equal(after.in_bytes - before.in_bytes, 5);
    } finally {
      await nats.stop();
    }
  });

  it('has no monitoring endpoint unless asked', async () => {
    const nats = await startNats();
    try {
      assert.equal(nats.monitorUrl, undefined);
    } finally {
      await nats.stop();
    }
  });
});
