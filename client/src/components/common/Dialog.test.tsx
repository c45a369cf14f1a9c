import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './Dialog.tsx';

/** A page with a button before and after the opener, and a dialog that may open a second one. */
function Page() {
  const [open, setOpen] = useState(false);
  const [inner, setInner] = useState(false);
  return (
    <>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <button type="button">After</button>
      {open && (
        <Dialog title="Outer" onClose={() => setOpen(false)}>
          <input aria-label="Name" />
          <button type="button" disabled>
            Disabled
          </button>
          <button type="button" onClick={() => setInner(true)}>
            More
          </button>
          {inner && (
            <Dialog title="Inner" onClose={() => setInner(false)}>
              <input aria-label="Detail" />
            </Dialog>
          )}
        </Dialog>
      )}
    </>
  );
}

describe('Dialog', () => {
  it('keeps Tab and Shift+Tab inside and gives focus back to the opener', async () => {
    const user = userEvent.setup();
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Outer' });
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
      seen.push(document.activeElement?.getAttribute('aria-label') ?? document.activeElement!.textContent!);
    }
    expect(seen).toEqual(['More', 'Close', 'Name', 'More']);
    for (let i = 0; i < 3; i++) await user.tab({ shift: true });
    expect(document.activeElement?.textContent).toBe('More');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('closes only the topmost dialog on Escape, trapping focus in it', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const more = screen.getByRole('button', { name: 'More' });
    await user.click(more);
    const inner = screen.getByRole('dialog', { name: 'Inner' });
    expect(document.activeElement).toBe(screen.getByLabelText('Detail'));
    for (let i = 0; i < 3; i++) {
      await user.tab();
      expect(inner.contains(document.activeElement)).toBe(true);
    }
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Inner' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Outer' })).toBeTruthy();
    expect(document.activeElement).toBe(more);
  });

  it('closes on the Close button and on a press on the backdrop', async () => {
    const user = userEvent.setup();
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    await user.click(opener);
    await user.click(document.querySelector('.backdrop')!);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
