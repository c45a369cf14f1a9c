import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { commandSuggestions } from '../../../state/commands.ts';
import { alice, bob, users } from '../../../test/fixtures.ts';
import { Composer } from '../Composer.tsx';
import { commandCandidates, commandQueryAt, insertCommand } from './command-query.ts';
import type { SlashCommand } from '@im/protocol';

function command(trigger: string, description?: string): SlashCommand {
  return {
    id: `${trigger}-id`,
    groupId: 'g',
    trigger,
    ...(description ? { description } : {}),
    botId: `${trigger}-bot`,
    createdBy: bob.id,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

const GROUP_COMMANDS = [command('deploy', 'Ship the main branch'), command('status', 'How the servers are doing')];

function compose() {
  const onSend = vi.fn();
  render(
    <Composer
      placeholder="Message #general"
      members={[alice, bob]}
      commands={commandSuggestions(GROUP_COMMANDS)}
      me={alice}
      users={users}
      replyTo={null}
      onCancelReply={vi.fn()}
      onSend={onSend}
      onTyping={vi.fn()}
      upload={() => ({ promise: new Promise(() => undefined), abort: vi.fn() })}
    />,
  );
  const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
  const type = (value: string, caret = value.length) =>
    fireEvent.change(box, { target: { value, selectionStart: caret, selectionEnd: caret } });
  const shown = () => screen.queryAllByRole('option').map((o) => o.textContent);
  return { box, type, shown, onSend };
}

describe('Composer: command suggestions', () => {
  it('offers the group commands and the built-in ones, with their descriptions, after a leading /', () => {
    const { type, shown } = compose();
    type('/');
    expect(screen.getByRole('listbox', { name: 'Commands' })).toBeTruthy();
    expect(shown()).toEqual([
      '/deploy Ship the main branch',
      '/status How the servers are doing',
      expect.stringMatching(/^\/me /),
      expect.stringMatching(/^\/shrug /),
    ]);
  });

  it('narrows the list as the trigger is typed, and closes once the trigger is done or the text is not a command', () => {
    const { type, shown } = compose();
    type('/st');
    expect(shown()).toEqual(['/status How the servers are doing']);
    type('/sh');
    expect(shown()).toEqual([expect.stringMatching(/^\/shrug/)]);
    type('/nothing');
    expect(screen.queryByRole('listbox')).toBeNull();
    type('/deploy now');
    expect(screen.queryByRole('listbox')).toBeNull();
    type('see /deploy');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('moves with the arrows and completes with Enter, without sending', () => {
    const { box, type, onSend } = compose();
    type('/');
    const selected = () => screen.getAllByRole('option').findIndex((o) => o.getAttribute('aria-selected') === 'true');
    expect(selected()).toBe(0);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(selected()).toBe(1);
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[1]!.id);
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(selected()).toBe(3); // wraps round to the last
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('/status ');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.selectionStart).toBe('/status '.length);
  });

  it('completes with Tab, then Enter sends the command text', () => {
    const { box, type, onSend } = compose();
    type('/dep');
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('/deploy ');
    type('/deploy staging');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('/deploy staging', { attachments: [] });
  });

  it('closes on Escape, and Enter then sends the text as typed', () => {
    const { box, type, onSend } = compose();
    type('/de');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.value).toBe('/de');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('/de', { attachments: [] });
  });

  it('completes a command picked with the mouse', () => {
    const { box, type } = compose();
    type('/');
    fireEvent.mouseDown(screen.getByText('/deploy'));
    expect(box.value).toBe('/deploy ');
  });
});

describe('command-query', () => {
  it('finds the trigger being typed only at the very start, up to the caret', () => {
    expect(commandQueryAt('/', 1)).toBe('');
    expect(commandQueryAt('/Dep', 4)).toBe('dep');
    expect(commandQueryAt('/deploy', 3)).toBeNull(); // inside a word that goes on
    expect(commandQueryAt(' /deploy', 8)).toBeNull();
    expect(commandQueryAt('/deploy x', 9)).toBeNull();
    expect(commandQueryAt('/a.b', 4)).toBeNull();
  });

  it('matches triggers by their start, group commands before the built-in ones', () => {
    const list = commandSuggestions(GROUP_COMMANDS);
    expect(commandCandidates(list, 's').map((c) => c.trigger)).toEqual(['status', 'shrug']);
    expect(commandCandidates(list, 'tatus')).toEqual([]);
    expect(commandCandidates(list, '', 3).map((c) => c.trigger)).toEqual(['deploy', 'status', 'me']);
  });

  it('inserts the trigger with a space and keeps the text after the caret', () => {
    expect(insertCommand('/de', 3, 'deploy')).toEqual({ text: '/deploy ', caret: 8 });
    expect(insertCommand('/de now', 3, 'deploy')).toEqual({ text: '/deploy now', caret: 8 });
  });
});
