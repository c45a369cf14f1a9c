import type { Ack, CommandAccepted, SlashCommand } from '@im/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alice, bob, message } from '../test/fixtures.ts';
import { fakeSocket } from '../test/socket.ts';
import { commandAnswered, commandFailedText } from './command-sends.ts';
import { setCurrentSocket } from './connection.ts';
import { sendCommand, sendMessage } from './conversations.ts';
import { emptyConverse } from './messages.ts';
import { getState, initialState, setState } from './store.ts';

const CONVERSE = message(1, bob, '').converseId;
const deploy: SlashCommand = {
  id: 'd'.repeat(24),
  groupId: 'g'.repeat(24),
  trigger: 'deploy',
  botId: 'f'.repeat(24),
  createdBy: bob.id,
  createdAt: '2026-01-01T00:00:00.000Z',
};

const accepted = (status: CommandAccepted['status']): Ack<CommandAccepted> => ({
  ok: true,
  data: { command: 'deploy', status },
});

/** Lets the awaited ack settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const notes = () => getState().commandNotes[CONVERSE] ?? [];
const pending = () => getState().converses[CONVERSE]?.pending ?? [];

beforeEach(() =>
  setState({ ...initialState(), me: alice, converses: { [CONVERSE]: { ...emptyConverse(), loaded: true } } }),
);
afterEach(() => setCurrentSocket(null));

describe('sending a slash command', () => {
  it('shows "working" while the server runs it, never a pending message, and nothing once answered', async () => {
    let reply!: (ack: Ack<CommandAccepted>) => void;
    const emits = fakeSocket(() => new Promise((resolve) => (reply = resolve)));
    sendCommand(CONVERSE, '/deploy staging', deploy);
    expect(emits).toEqual([
      {
        event: 'message:send',
        body: expect.objectContaining({ converseId: CONVERSE, content: '/deploy staging' }),
      },
    ]);
    expect(notes()).toMatchObject([{ command: 'deploy', status: 'sending' }]);
    expect(pending()).toEqual([]);
    reply(accepted('answered'));
    await settle();
    expect(notes()).toEqual([]);
    expect(pending()).toEqual([]);
    expect(getState().converses[CONVERSE]!.items).toEqual([]);
  });

  it('keeps a note while the answer is still to come, ended by a message from the command bot', async () => {
    fakeSocket(() => accepted('working'));
    sendCommand(CONVERSE, '/deploy', deploy);
    await settle();
    expect(notes()).toMatchObject([{ status: 'working', botId: deploy.botId }]);
    commandAnswered(CONVERSE, { botId: deploy.botId });
    expect(notes()).toEqual([]);
  });

  it("says clearly when the command's service failed, or the send was refused", async () => {
    fakeSocket(() => accepted('failed'));
    sendCommand(CONVERSE, '/deploy', deploy);
    await settle();
    expect(notes()).toMatchObject([{ status: 'failed', error: commandFailedText() }]);

    setState({ commandNotes: {} });
    fakeSocket(() => ({ ok: false, error: { code: 'IM_ERR_MUTED', message: 'muted' } }));
    sendCommand(CONVERSE, '/deploy', deploy);
    await settle();
    expect(notes()).toMatchObject([{ status: 'failed', error: 'You are muted in this group for now.' }]);
  });

  it('takes a message answer in when the server did not treat the text as a command', async () => {
    const stored = { ...message(5, alice, '/deploy'), converseId: CONVERSE };
    fakeSocket(() => ({ ok: true, data: stored }));
    sendCommand(CONVERSE, '/deploy', deploy);
    await settle();
    expect(notes()).toEqual([]);
    expect(getState().converses[CONVERSE]!.items.map((m) => m.content)).toEqual(['/deploy']);
  });
});

describe('a plain send that turns out to be a command', () => {
  it('drops its pending copy, since nothing was stored, and notes a late answer', async () => {
    fakeSocket(() => accepted('working'));
    sendMessage(CONVERSE, '/deploy now');
    expect(pending().map((p) => p.content)).toEqual(['/deploy now']);
    await settle();
    expect(pending()).toEqual([]);
    expect(notes()).toMatchObject([{ command: 'deploy', status: 'working' }]);
  });

  it('leaves nothing behind when it was answered at once', async () => {
    fakeSocket(() => accepted('answered'));
    sendMessage(CONVERSE, '/deploy now');
    await settle();
    expect(pending()).toEqual([]);
    expect(notes()).toEqual([]);
  });
});
