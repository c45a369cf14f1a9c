import type { ImportJob } from '@im/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatSocket } from '../api/socket.ts';
import { fakeServer } from '../test/server.ts';
import { setCurrentSocket } from './connection.ts';
import { IMPORT_POLL_MS, skippedReasons, watchImport, withJob } from './imports.ts';
import { apiPath } from '@im/api-client';

const job = (id: string, over: Partial<ImportJob> = {}): ImportJob => ({
  id,
  kind: 'slack',
  fileName: 'acme.zip',
  status: 'running',
  progress: { phase: 'messages', messages: 0 },
  groupIds: [],
  startedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

/** A socket whose `import:progress` handlers the test calls itself. */
function progressSocket() {
  const handlers = new Set<(job: ImportJob) => void>();
  const socket = {
    on: (_event: string, f: (job: ImportJob) => void) => handlers.add(f),
    off: (_event: string, f: (job: ImportJob) => void) => handlers.delete(f),
  };
  setCurrentSocket(socket as unknown as ChatSocket);
  return { emit: (j: ImportJob) => handlers.forEach((f) => f(j)), handlers };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setCurrentSocket(null);
});

describe('imports', () => {
  it('keeps the list newest first with each job in its latest state', () => {
    const a = job('a');
    const b = job('b');
    expect(withJob([a], b).map((j) => j.id)).toEqual(['b', 'a']);
    const done = job('a', { status: 'done' });
    expect(withJob([b, a], done)).toEqual([b, done]);
  });

  it('lists skip reasons, the most frequent first', () => {
    const j = job('a', { skippedReasons: { 'system message': 3, 'already imported': 10, 'a file missing': 3 } });
    expect(skippedReasons(j)).toEqual([
      ['already imported', 10],
      ['a file missing', 3],
      ['system message', 3],
    ]);
    expect(skippedReasons(job('b'))).toEqual([]);
  });

  it('polls every second without progress events, and stops once the import ended', async () => {
    vi.useFakeTimers();
    const answers = [
      job('j1', { progress: { phase: 'messages', messages: 500 } }),
      job('j1', { status: 'done', progress: { phase: 'finishing', messages: 900 } }),
    ];
    const seen = fakeServer(() => ({ body: answers.shift() }));
    const states: ImportJob[] = [];
    watchImport('j1', (j) => states.push(j));
    await vi.advanceTimersByTimeAsync(IMPORT_POLL_MS);
    await vi.advanceTimersByTimeAsync(IMPORT_POLL_MS);
    await vi.advanceTimersByTimeAsync(IMPORT_POLL_MS * 3);
    expect(seen.map((r) => r.url)).toEqual([
      apiPath('import.get', { importId: 'j1' }),
      apiPath('import.get', { importId: 'j1' }),
    ]);
    expect(states.map((j) => [j.status, j.progress.messages])).toEqual([
      ['running', 500],
      ['done', 900],
    ]);
  });

  it("takes the socket's progress events for its job instead of polling, and lets go of the socket at the end", async () => {
    vi.useFakeTimers();
    const seen = fakeServer(() => ({ body: job('j1') }));
    const socket = progressSocket();
    const states: ImportJob[] = [];
    watchImport('j1', (j) => states.push(j));
    socket.emit(job('other', { progress: { phase: 'messages', messages: 7 } }));
    socket.emit(job('j1', { progress: { phase: 'messages', messages: 100 } }));
    await vi.advanceTimersByTimeAsync(IMPORT_POLL_MS);
    expect(seen).toEqual([]);
    socket.emit(job('j1', { status: 'failed', error: { code: 'IM_ERR_VALIDATION', message: 'not a Slack export' } }));
    expect(states.map((j) => j.status)).toEqual(['running', 'failed']);
    expect(socket.handlers.size).toBe(0);
    await vi.advanceTimersByTimeAsync(IMPORT_POLL_MS * 5);
    expect(seen).toEqual([]);
  });
});
