import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CommandNote } from '../../../state/command-sends.ts';
import { CommandNotes } from './CommandNotes.tsx';

const note = (status: CommandNote['status'], error?: string): CommandNote => ({
  id: `c:${status}`,
  converseId: 'c',
  command: 'deploy',
  status,
  ...(error ? { error } : {}),
});

describe('CommandNotes', () => {
  it('says a command is working while it is sent, with nothing to dismiss yet', () => {
    render(<CommandNotes notes={[note('sending')]} onDismiss={vi.fn()} />);
    expect(screen.getByRole('status').textContent).toBe('/deploy is working…');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says a late answer will follow, and a failure as an alert; both can be dismissed', () => {
    const onDismiss = vi.fn();
    const failed = note('failed', 'Not sent: no connection');
    render(<CommandNotes notes={[note('working'), failed]} onDismiss={onDismiss} />);
    expect(screen.getByRole('status').textContent).toMatch(/^\/deploy is taking a while: its answer will show here/);
    expect(screen.getByRole('alert').textContent).toBe('/deploy failed. Not sent: no connection');
    fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss the note about /deploy' })[1]!);
    expect(onDismiss).toHaveBeenCalledWith(failed);
  });

  it('shows nothing without notes', () => {
    const { container } = render(<CommandNotes notes={[]} onDismiss={vi.fn()} />);
    expect(container.textContent).toBe('');
  });
});
