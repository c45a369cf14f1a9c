import type { FileInfo } from '@im/protocol';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setState } from '../../state/store.ts';
import { fakeServer } from '../../test/server.ts';
import { JumpToPresent } from '../catch-up/JumpToPresent.tsx';
import { Attachment } from './Attachment.tsx';
import { EditedMark, MessageTime } from './MessageTime.tsx';

afterEach(() => vi.unstubAllGlobals());

const file = (id: string, name: string, mime: string): FileInfo => ({
  id,
  name,
  mime,
  size: 2048,
  url: '',
});
const signed = () => ({ body: { url: '/signed', expiresAt: new Date(Date.now() + 600_000).toISOString() } });

describe('Attachment', () => {
  it('asks for no thumbnail of a file kind that has none, only for its bytes', async () => {
    const requests = fakeServer(signed);
    setState((s) => ({ files: { ...s.files, pdf1: file('pdf1', 'plan.pdf', 'application/pdf') } }));
    render(<Attachment fileId="pdf1" onOpenImage={() => undefined} />);
    await waitFor(() => expect(screen.getByTestId('file-card').getAttribute('href')).toBe('/signed'));
    expect(requests.map((r) => r.url).filter((u) => u.includes('thumbnail'))).toEqual([]);
    expect(screen.getByTestId('file-card').textContent).toContain('plan.pdf');
  });

  it("asks for an image's thumbnail", async () => {
    const requests = fakeServer(signed);
    setState((s) => ({ files: { ...s.files, png1: file('png1', 'map.png', 'image/png') } }));
    render(<Attachment fileId="png1" onOpenImage={() => undefined} />);
    await screen.findByRole('button', { name: 'Open image map.png' });
    await waitFor(() => expect(requests.some((r) => r.url.includes('thumbnail'))).toBe(true));
  });
});

describe('JumpToPresent', () => {
  it('counts the new messages below with a plural, and says nothing of none', () => {
    const { rerender } = render(<JumpToPresent count={0} onJump={() => undefined} />);
    expect(screen.getByTestId('jump-to-present').textContent).toBe('Jump to present ↓');
    rerender(<JumpToPresent count={1} onJump={() => undefined} />);
    expect(screen.getByTestId('jump-to-present').textContent).toBe('1 new message · Jump to present ↓');
    rerender(<JumpToPresent count={12} onJump={() => undefined} />);
    expect(screen.getByTestId('jump-to-present').textContent).toBe('12 new messages · Jump to present ↓');
  });
});

describe('MessageTime', () => {
  it('shows the time, with the full date and time in its tooltip', () => {
    const iso = '2025-03-04T15:06:07.000Z';
    render(
      <>
        <MessageTime at={iso} />
        <EditedMark at={iso} />
      </>,
    );
    const time = screen.getByTestId('message-time');
    const at = new Date(iso);
    expect(time.getAttribute('dateTime')).toBe(iso);
    expect(time.textContent).toBe(at.toLocaleTimeString('en', { hour: 'numeric', minute: 'numeric' }));
    const date = new Intl.DateTimeFormat('en', { dateStyle: 'full' }).format(at);
    expect(time.getAttribute('title')).toBe(`${date} at ${at.toLocaleTimeString('en')}`);
    expect(screen.getByTestId('edited').textContent).toBe('(edited)');
  });
});
