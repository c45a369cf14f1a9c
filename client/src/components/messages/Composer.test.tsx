import type { Message } from '@im/protocol';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FileInfo } from '../../api/upload.ts';
import { alex, alice, bob, message, users } from '../../test/fixtures.ts';
import { Composer, MAX_CONTENT, type Uploader } from './Composer.tsx';
import { apiPath } from '@im/api-client';

/** An uploader the test finishes by hand: progress, then the server's answer. */
function manualUploader() {
  const started: Array<{ file: File; progress: (f: number) => void; finish: (info: FileInfo) => void }> = [];
  const upload: Uploader = (file, onProgress) => {
    let finish!: (info: FileInfo) => void;
    const promise = new Promise<FileInfo>((resolve) => (finish = resolve));
    started.push({ file, progress: onProgress, finish });
    return { promise, abort: vi.fn() };
  };
  return { upload, started };
}

function compose(opts: { replyTo?: Message | null; upload?: Uploader } = {}) {
  const onSend = vi.fn();
  const onCancelReply = vi.fn();
  const onTyping = vi.fn();
  render(
    <Composer
      placeholder="Message #general"
      members={[alice, bob, alex]}
      me={alice}
      users={users}
      replyTo={opts.replyTo ?? null}
      onCancelReply={onCancelReply}
      onSend={onSend}
      onTyping={onTyping}
      upload={opts.upload ?? manualUploader().upload}
    />,
  );
  const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
  const type = (value: string) => fireEvent.change(box, { target: { value, selectionStart: value.length } });
  return { box, type, onSend, onCancelReply, onTyping };
}

describe('Composer', () => {
  it('sends on Enter and breaks the line on Shift+Enter', () => {
    const { box, type, onSend, onTyping } = compose();
    type('first line');
    expect(onTyping).toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    type('first line\nsecond line');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('first line\nsecond line', { attachments: [] });
    expect(box.value).toBe('');
  });

  it('sends nothing blank, and refuses over 4,000 characters with a visible reason', () => {
    const { box, type, onSend } = compose();
    type('   \n ');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    type('x'.repeat(MAX_CONTENT + 1));
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toContain('too long');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers members for @mentions, by username or nickname, never myself, and inserts the chosen one', () => {
    const { box, type } = compose();
    type('hello @al');
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Alexandra @alex', 'Everyone @all']);
    type('hello @');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Bob @bob', 'Alexandra @alex']);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('hello @alex ');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('puts the caret after a mention chosen mid-text before the next key can arrive', () => {
    const { box } = compose();
    const value = 'hi @bo, see below';
    fireEvent.change(box, { target: { value, selectionStart: 'hi @bo'.length, selectionEnd: 'hi @bo'.length } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('hi @bob , see below');
    // Checked with no frame in between: a key typed now must go right after the mention, not at the end.
    expect([box.selectionStart, box.selectionEnd]).toEqual(['hi @bob '.length, 'hi @bob '.length]);
  });

  it('closes the mention list on Escape without sending', () => {
    const { box, type, onSend } = compose();
    type('@b');
    expect(screen.getByRole('listbox')).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('uploads a pasted file with its progress shown, waits for it, then sends it attached', async () => {
    const uploader = manualUploader();
    const { box, type, onSend } = compose({ upload: uploader.upload });
    const file = new File([new Uint8Array(2048)], 'photo.png', { type: 'image/png' });
    fireEvent.paste(box, { clipboardData: { files: [file] } });
    expect(uploader.started.map((u) => u.file.name)).toEqual(['photo.png']);
    act(() => uploader.started[0]!.progress(0.5));
    const bar = screen.getByRole('progressbar', { name: 'Uploading photo.png' }) as HTMLProgressElement;
    expect(bar.value).toBe(0.5);
    type('look');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled(); // still uploading
    const info: FileInfo = {
      id: 'f'.repeat(24),
      name: 'photo.png',
      size: 2048,
      mime: 'image/png',
      url: apiPath('file.download', { fileId: 'x' }),
    };
    await act(async () => uploader.started[0]!.finish(info));
    expect(screen.queryByRole('progressbar')).toBeNull();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('look', { attachments: [info.id] });
    expect(screen.queryByTestId('upload')).toBeNull();
  });

  it('sends a reply to the message being answered, and Escape cancels the reply', () => {
    const original = message(4, bob, 'question?');
    const { box, type, onSend, onCancelReply } = compose({ replyTo: original });
    expect(screen.getByTestId('replying').textContent).toContain('question?');
    type('answer');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('answer', { attachments: [], replyTo: original.id });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(onCancelReply).toHaveBeenCalled();
  });
});

describe('Composer keys', () => {
  it('edits my last message on Up-arrow only while empty', () => {
    const onEditLast = vi.fn(() => true);
    render(
      <Composer
        placeholder="Message #general"
        members={[]}
        me={alice}
        users={users}
        replyTo={null}
        onCancelReply={vi.fn()}
        onSend={vi.fn()}
        onTyping={vi.fn()}
        upload={manualUploader().upload}
        onEditLast={onEditLast}
      />,
    );
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'draft', selectionStart: 5 } });
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(onEditLast).not.toHaveBeenCalled();
    fireEvent.change(box, { target: { value: '', selectionStart: 0 } });
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(onEditLast).toHaveBeenCalledTimes(1);
  });

  it('offers emoji for a :shortcode: and puts the one picked in the text', async () => {
    const { box, type } = compose();
    type('launch :rock');
    const option = await screen.findByRole('option', { name: ':rocket:' }, { timeout: 5000 });
    fireEvent.mouseDown(option);
    expect(box.value).toBe('launch 🚀');
    type('launch 🚀 :tada: ');
    expect(box.value).toBe('launch 🚀 🎉 ');
  });
});
