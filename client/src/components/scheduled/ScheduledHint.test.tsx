import type { ScheduledEntry } from '@im/protocol';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyScheduled, useScheduled } from '../../state/scheduled.ts';
import { ScheduledHint } from './ScheduledHint.tsx';

const entry = (id: string, converseId: string, status: ScheduledEntry['status'] = 'pending'): ScheduledEntry => ({
  id,
  converseId,
  sendAt: new Date(Date.now() + 3_600_000).toISOString(),
  content: `text ${id}`,
  createdAt: new Date().toISOString(),
  status,
  ...(status === 'failed' ? { failure: 'You can no longer write here' } : {}),
});

afterEach(() => useScheduled.setState({ items: [], loaded: false, open: false }));

describe('ScheduledHint', () => {
  it('counts the messages scheduled in this converse only, and follows the events', () => {
    useScheduled.setState({ items: [entry('a', 'c1'), entry('b', 'c1'), entry('c', 'c2')] });
    render(<ScheduledHint converseId="c1" />);
    expect(screen.getByTestId('scheduled-hint').textContent).toContain('2 messages scheduled here');
    act(() => applyScheduled({ scheduled: { ...entry('a', 'c1'), status: 'sent', messageId: 'm1' } }));
    expect(screen.getByTestId('scheduled-hint').textContent).toContain('1 message scheduled here');
    act(() => applyScheduled({ scheduled: entry('b', 'c1', 'failed') }));
    expect(screen.getByTestId('scheduled-hint').textContent).toContain('1 not sent');
    act(() => applyScheduled({ scheduled: entry('b', 'c1', 'failed'), removed: true }));
    expect(screen.queryByTestId('scheduled-hint')).toBeNull();
  });
});
