import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test/server.ts';
import { LinkPreviewCard } from './LinkPreviewCard.tsx';
import { apiPath } from '@im/api-client';

const IMAGE = 'a'.repeat(24);

afterEach(() => vi.unstubAllGlobals());

describe('LinkPreviewCard', () => {
  it('shows site, linked title, description and the stored image through a signed URL', async () => {
    const requests = fakeServer(() => ({
      body: { url: `/signed/${IMAGE}`, expiresAt: new Date(Date.now() + 600_000).toISOString() },
    }));
    render(
      <LinkPreviewCard
        preview={{
          url: 'https://example.org/post',
          title: 'A post',
          description: 'What it says',
          siteName: 'Example',
          imageFileId: IMAGE,
        }}
      />,
    );
    const card = screen.getByRole('complementary', { name: 'Link preview: A post' });
    expect(card.textContent).toContain('Example');
    expect(card.textContent).toContain('What it says');
    expect(screen.getByRole('link', { name: 'A post' }).getAttribute('href')).toBe('https://example.org/post');
    await waitFor(() => expect(card.querySelector('img')?.getAttribute('src')).toBe(`/signed/${IMAGE}`));
    // The browser asks this server for the image, never the site.
    expect(requests.map((r) => r.url)).toEqual([apiPath('file.url', { fileId: IMAGE, variant: 'file' })]);
    expect(screen.queryByRole('button', { name: 'Remove preview' })).toBeNull();
  });

  it('offers its author a remove button; a non-http link is not made clickable', () => {
    const onRemove = vi.fn();
    render(<LinkPreviewCard preview={{ url: 'javascript:alert(1)', title: 'Sneaky' }} onRemove={onRemove} />);
    expect(screen.getByText('Sneaky').getAttribute('href')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove preview' }));
    expect(onRemove).toHaveBeenCalledTimes(1);
  });
});
