import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test/server.ts';
import { PushSubscriptionsSection } from './PushSubscriptionsSection.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const laptop = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', createdAt: '2026-01-02T03:04:05.000Z' };
const phone = {
  endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/def',
  createdAt: '2026-02-03T04:05:06.000Z',
};

describe('PushSubscriptionsSection', () => {
  it('lists my subscriptions by push service and removes the one asked for', async () => {
    let mine = [laptop, phone];
    const requests = fakeServer((req) => {
      if (req.method === 'DELETE') {
        mine = mine.filter((s) => s.endpoint !== (req.body as { endpoint: string }).endpoint);
        return { status: 204 };
      }
      return { body: mine };
    });
    render(<PushSubscriptionsSection refresh="enabled" />);
    expect(
      (await screen.findAllByTestId('push-subscription')).map((li) => li.querySelector('.session-agent')!.textContent),
    ).toEqual(['fcm.googleapis.com', 'updates.push.services.mozilla.com']);
    fireEvent.click(screen.getAllByRole('button', { name: 'Remove' })[0]!);
    await vi.waitFor(() => expect(screen.getAllByTestId('push-subscription')).toHaveLength(1));
    expect(requests).toContainEqual({
      method: 'DELETE',
      url: '/api/push/subscriptions',
      body: { endpoint: laptop.endpoint },
    });
  });

  it('shows nothing when no browser is subscribed', async () => {
    const requests = fakeServer(() => ({ body: [] }));
    const { container } = render(<PushSubscriptionsSection refresh="default" />);
    expect(container.textContent).not.toBe('');
    // Once the empty list is in, the section leaves the dialog.
    await vi.waitFor(() => expect(container.textContent).toBe(''));
    expect(requests).toEqual([{ method: 'GET', url: '/api/push/subscriptions', body: undefined }]);
  });
});
