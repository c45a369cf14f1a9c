import type { PublicUser } from '@im/protocol';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, bob, message, users } from '../../test/fixtures.ts';
import { showList } from '../../test/message-list.tsx';

const hookBot: PublicUser = {
  id: 'f'.repeat(24),
  username: 'hook-ci',
  nickname: 'CI hook',
  createdAt: '2026-01-01T00:00:00.000Z',
  bot: true,
};
const withBot = { ...users, [hookBot.id]: hookBot };

/** Each header's text without its time (which the locale formats). */
const heads = () =>
  [...document.querySelectorAll('.message-head')].map((h) =>
    [...h.childNodes]
      .filter((n) => n.nodeName !== 'TIME')
      .map((n) => n.textContent)
      .join(''),
  );

describe('Messages from bots and integrations', () => {
  it('puts a BOT badge beside a bot author, never beside a person', () => {
    showList([message(1, hookBot, 'build passed'), message(2, bob, 'thanks')], { users: withBot });
    const [fromBot, fromBob] = screen.getAllByTestId('message');
    expect(within(fromBot!).getByTestId('bot-badge').textContent).toBe('BOT');
    expect(within(fromBot!).queryByTestId('via')).toBeNull();
    expect(within(fromBob!).queryByTestId('bot-badge')).toBeNull();
  });

  it('shows the name a webhook posted under, "via" its bot, with the BOT badge', () => {
    showList([{ ...message(1, hookBot, 'deployed v2'), username: 'Jenkins' }], { users: withBot });
    const item = screen.getByTestId('message');
    expect(within(item).getByText('Jenkins').className).toBe('author');
    expect(within(item).getByTestId('via').textContent).toBe('via CI hook');
    expect(within(item).getByTestId('bot-badge')).toBeTruthy();
    expect(item.getAttribute('aria-label')).toMatch(/^Jenkins, \d+:\d+.*: deployed v2$/);
  });

  it('gives each webhook name its own header, though one bot posted them all', () => {
    showList(
      [
        { ...message(1, hookBot, 'one'), username: 'Jenkins' },
        { ...message(2, hookBot, 'two'), username: 'Jenkins' },
        { ...message(3, hookBot, 'three'), username: 'Grafana' },
      ],
      { users: withBot },
    );
    expect(heads()).toEqual(['Jenkins BOT via CI hook', 'Grafana BOT via CI hook']);
  });

  it('renders /me as the author name and the text, in italics', () => {
    showList([{ ...message(1, alice, 'waves'), emote: true }, message(2, alice, 'plain')]);
    const [emote, plain] = screen.getAllByTestId('message-content');
    expect(emote!.textContent).toBe('Alice waves');
    expect(emote!.querySelector('em')?.textContent).toBe('Alice waves');
    expect(screen.getAllByTestId('message')[0]!.getAttribute('aria-label')).toMatch(/^Alice, \d+:\d+.*: Alice waves$/);
    expect(plain!.querySelector('em')).toBeNull();
    expect(plain!.textContent).toBe('plain');
  });

  it('shows a /me send as the action while it is still sending', () => {
    const pending = (clientMsgId: string, content: string) => ({
      clientMsgId,
      converseId: 'c1',
      content,
      attachments: [],
      status: 'sending' as const,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    showList([], { pending: [pending('p1', '/me  waves '), pending('p2', '/me'), pending('p3', '/meet me')] });
    const [emote, bare, other] = screen.getAllByTestId('message-content');
    expect(emote!.querySelector('em')?.textContent).toBe('Alice waves');
    expect(screen.getAllByTestId('message')[0]!.getAttribute('aria-label')).toMatch(/^Alice, \d+:\d+.*: Alice waves$/);
    expect(bare!.querySelector('em')).toBeNull();
    expect(other!.textContent).toBe('/meet me');
  });

  it('names an emote by the webhook name when it has one', () => {
    showList([{ ...message(1, hookBot, 'restarts the build'), username: 'Jenkins', emote: true }], {
      users: withBot,
    });
    expect(screen.getByTestId('message-content').textContent).toBe('Jenkins restarts the build');
  });
});
