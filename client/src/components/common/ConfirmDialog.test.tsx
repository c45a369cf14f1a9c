import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ConfirmHost } from './ConfirmDialog.tsx';
import { confirmAction } from './confirm.ts';

describe('confirmAction', () => {
  it('asks in an in-app dialog with focus on Cancel, and answers true for the action button', async () => {
    render(<ConfirmHost />);
    let answer!: Promise<boolean>;
    act(() => {
      answer = confirmAction({ message: 'shell.confirm.deletePanel', values: { name: 'news' } });
    });
    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure?' });
    expect(dialog.textContent).toContain('Delete #news and its messages?');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await expect(answer).resolves.toBe(true);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('answers false on Escape, and on Enter while Cancel has the focus', async () => {
    render(<ConfirmHost />);
    let first!: Promise<boolean>;
    act(() => {
      first = confirmAction({
        message: 'shell.confirm.leaveGroup',
        values: { name: 'Team' },
        confirm: 'shell.confirm.leave',
      });
    });
    expect(screen.getByRole('button', { name: 'Leave' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await expect(first).resolves.toBe(false);
    let second!: Promise<boolean>;
    act(() => {
      second = confirmAction({ text: 'Rotate the secret?', confirm: { text: 'New secret' } });
    });
    await userEvent.keyboard('{Enter}');
    await expect(second).resolves.toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
