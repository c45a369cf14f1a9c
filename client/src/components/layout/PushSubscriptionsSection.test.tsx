import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer } from '../../test/server.ts';
import { PushSubscriptionsSection } from './PushSubscriptionsSection.tsx';
import { apiPath } from '@im/api-client';

afterEach(() => {
  vi.unstubAllGlobals();
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
});

/** A browser with notifications allowed whose own Web Push subscription is `endpoint`. */
function browserSubscribedAs(endpoint: string) {
  const subscription = { endpoint, unsubscribe: vi.fn(async () => true) };
  const registration = { pushManager: { getSubscription: async () => subscription } };
  vi.stubGlobal('Notification', { permission: 'granted' });
  vi.stubGlobal('PushManager', function PushManager() {});
  Object.defineProperty(navigator, 'serviceWorker', {
    value: { getRegistration: async () => registration },
    configurable: true,
  });
  return subscription;
}

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
      url: apiPath('push.subscriptions'),
      body: { endpoint: laptop.endpoint },
    });
  });

  it('shows nothing when no browser is subscribed', async () => {
    const requests = fakeServer(() => ({ body: [] }));
    const { container } = render(<PushSubscriptionsSection refresh="default" />);
    expect(container.textContent).not.toBe('');
    // Once the empty list is in, the section leaves the dialog.
    await vi.waitFor(() => expect(container.textContent).toBe(''));
    expect(requests).toEqual([{ method: 'GET', url: apiPath('push.subscriptions'), body: undefined }]);
  });

  it('says why a removal failed, and stops saying it once a removal works', async () => {
    let refuse = true;
    fakeServer((req) => {
      if (req.method === 'DELETE')
        return refuse ? apiError(503, 'IM_ERR_UNAVAILABLE', 'Try again later') : { status: 204 };
      return { body: [laptop, phone] };
    });
    render(<PushSubscriptionsSection refresh="enabled" />);
    fireEvent.click((await screen.findAllByRole('button', { name: 'Remove' }))[0]!);
    expect((await screen.findByRole('alert')).textContent).not.toBe('');
    refuse = false;
    fireEvent.click(screen.getAllByRole('button', { name: 'Remove' })[0]!);
    await vi.waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it("removing this browser's own subscription turns notifications off here too", async () => {
    const own = browserSubscribedAs(laptop.endpoint);
    let mine = [laptop, phone];
    fakeServer((req) => {
      if (req.method === 'DELETE') {
        mine = mine.filter((s) => s.endpoint !== (req.body as { endpoint: string }).endpoint);
        return { status: 204 };
      }
      return { body: mine };
    });
    const changed = vi.fn();
    render(<PushSubscriptionsSection refresh="enabled" onThisBrowserRemoved={changed} />);
    // Another browser's removal leaves this one subscribed.
    fireEvent.click((await screen.findAllByRole('button', { name: 'Remove' }))[1]!);
    await vi.waitFor(() => expect(screen.getAllByTestId('push-subscription')).toHaveLength(1));
    expect(own.unsubscribe).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await vi.waitFor(() => expect(changed).toHaveBeenCalledTimes(1));
    expect(own.unsubscribe).toHaveBeenCalledTimes(1);
  });
});
