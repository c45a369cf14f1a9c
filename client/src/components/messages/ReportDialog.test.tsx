import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialState, setState, useStore } from '../../state/store.ts';
import { bob, message } from '../../test/fixtures.ts';
import { ReportDialog } from './ReportDialog.tsx';
import { apiPath } from '@im/api-client';

function answer(status: number, body: unknown) {
  return vi.fn(
    async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  setState(initialState());
});

function open() {
  const onClose = vi.fn();
  const reported = message(3, bob, 'buy cheap pills');
  render(<ReportDialog message={reported} author={bob} onClose={onClose} />);
  fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'spam' } });
  fireEvent.click(screen.getByRole('button', { name: 'Report' }));
  return { onClose, reported };
}

describe('ReportDialog', () => {
  it('sends the reason, thanks the reporter and closes', async () => {
    const fetch = answer(201, { id: 'r1' });
    vi.stubGlobal('fetch', fetch);
    const { onClose, reported } = open();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetch).toHaveBeenCalledWith(
      apiPath('moderation.report', { messageId: reported.id }),
      expect.objectContaining({ method: 'POST', body: JSON.stringify({ reason: 'spam' }) }),
    );
    expect(useStore.getState().notices.map((n) => n.text)).toEqual([
      'Thanks: the message was reported to the moderators.',
    ]);
  });

  it('says so when the message was already reported (409), and stays open', async () => {
    vi.stubGlobal('fetch', answer(409, { error: { code: 'IM_ERR_CONFLICT', message: 'Conflicts' } }));
    const { onClose } = open();
    expect((await screen.findByRole('alert')).textContent).toBe('You already reported this message');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes on Escape', () => {
    const onClose = vi.fn();
    render(<ReportDialog message={message(3, bob, 'x')} author={bob} onClose={onClose} />);
    expect(document.activeElement).toBe(screen.getByLabelText('Reason'));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });
});
