import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileInfo } from '../../api/upload.ts';
import { resetUploadLimit } from '../../state/upload-limit.ts';
import { fakeServer } from '../../test/server.ts';
import { alice, bob, users } from '../../test/fixtures.ts';
import { Composer, type ComposerHandle, type Uploader } from './Composer.tsx';
import { apiPath } from '@im/api-client';

const MB = 1024 * 1024;

/** Files the composer started uploading (never finished: the tests look at what was started). */
function recordingUploader() {
  const started: File[] = [];
  const upload: Uploader = (file) => {
    started.push(file);
    return { promise: new Promise<FileInfo>(() => undefined), abort: vi.fn() };
  };
  return { upload, started };
}

/** The composer inside a panel that, like the conversation view, takes files dropped anywhere on it. */
function panelWithComposer(upload: Uploader) {
  const composer = createRef<ComposerHandle>();
  render(
    <section
      aria-label="panel"
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        composer.current?.addFiles([...e.dataTransfer.files]);
      }}
    >
      <p>Messages</p>
      <Composer
        ref={composer}
        placeholder="Message #general"
        members={[alice, bob]}
        me={alice}
        users={users}
        replyTo={null}
        onCancelReply={() => undefined}
        onSend={() => undefined}
        onTyping={() => undefined}
        upload={upload}
      />
    </section>,
  );
}

/** A file of `size` bytes without allocating them. */
function fileOfSize(name: string, size: number): File {
  const file = new File(['x'], name, { type: 'application/octet-stream' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

beforeEach(() => {
  resetUploadLimit();
  fakeServer((req) =>
    req.url === apiPath('user.authOptions')
      ? { body: { registration: 'open', maxUploadBytes: 100 * MB } }
      : { status: 404 },
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('Composer: files', () => {
  it('opens the file chooser from the keyboard through a real button', async () => {
    const user = userEvent.setup();
    panelWithComposer(recordingUploader().upload);
    const box = screen.getByRole('textbox', { name: 'Message' });
    box.focus();
    await user.tab({ shift: true });
    const attach = screen.getByRole('button', { name: 'Attach files' });
    expect(document.activeElement).toBe(attach);
    const chooser = screen.getByTestId('file-input');
    const opened = vi.fn();
    chooser.addEventListener('click', opened);
    await user.keyboard('{Enter}');
    expect(opened).toHaveBeenCalledTimes(1);
    await user.keyboard(' ');
    expect(opened).toHaveBeenCalledTimes(2);
  });

  it('attaches a file dropped on the composer once, and one dropped elsewhere in the panel once', () => {
    const { upload, started } = recordingUploader();
    panelWithComposer(upload);
    const onComposer = new File(['a'], 'a.txt', { type: 'text/plain' });
    fireEvent.drop(screen.getByRole('textbox', { name: 'Message' }), { dataTransfer: { files: [onComposer] } });
    expect(started.map((f) => f.name)).toEqual(['a.txt']);
    expect(screen.getAllByTestId('upload')).toHaveLength(1);
    const elsewhere = new File(['b'], 'b.txt', { type: 'text/plain' });
    fireEvent.drop(screen.getByText('Messages'), { dataTransfer: { files: [elsewhere] } });
    expect(started.map((f) => f.name)).toEqual(['a.txt', 'b.txt']);
    expect(screen.getAllByTestId('upload')).toHaveLength(2);
  });

  it('refuses a file over the server limit before uploading it, saying the limit in MB', async () => {
    const user = userEvent.setup();
    const { upload, started } = recordingUploader();
    panelWithComposer(upload);
    const chooser = screen.getByTestId('file-input') as HTMLInputElement;
    // The limit comes from GET /api/auth/options once the composer is shown.
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 0));
    await user.upload(chooser, [fileOfSize('huge.iso', 100 * MB + 1), fileOfSize('fine.bin', 100 * MB)]);
    expect(started.map((f) => f.name)).toEqual(['fine.bin']);
    const refused = screen.getAllByTestId('upload').find((li) => li.textContent?.includes('huge.iso'))!;
    expect(refused.className).toContain('failed');
    expect(refused.textContent).toContain('Files can be at most 100 MB');
  });
});
