import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, bob, message } from '../../test/fixtures.ts';
import { showList } from '../../test/message-list.tsx';

describe('call records in the timeline', () => {
  it('shows a DM call that ended as a compact call line with its length, not as the plain text', () => {
    const record = {
      ...message(1, alice, 'Call ended after 1 min 5 s'),
      call: { outcome: 'ended' as const, durationSec: 65 },
    };
    showList([record, message(2, alice, 'that was quick')]);
    const line = screen.getByTestId('call-record');
    expect(line.dataset.outcome).toBe('ended');
    expect(line.textContent).toContain('Call ended · 1 min 5 s');
    expect(screen.queryByText('Call ended after 1 min 5 s')).toBeNull();
    // The next message by the same author is not folded under the record: it has its own header.
    const next = screen.getAllByTestId('message').find((m) => m.textContent?.includes('that was quick'))!;
    expect(next.textContent).toContain(alice.nickname || alice.username);
  });

  it('words a missed call for the one who was called, and for the caller', () => {
    showList([
      { ...message(1, bob, 'Missed call'), call: { outcome: 'missed', durationSec: 45 } },
      { ...message(2, alice, 'Missed call'), call: { outcome: 'missed', durationSec: 45 } },
    ]);
    const lines = screen.getAllByTestId('call-record').map((l) => l.textContent);
    expect(lines[0]).toContain('Missed call');
    expect(lines[1]).toContain('Call not answered');
  });
});
