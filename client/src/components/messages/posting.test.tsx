import { act, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alice, bob, users } from '../../test/fixtures.ts';
import { Composer } from './Composer.tsx';
import { formatTime } from './format.ts';
import { postingState, usePosting } from './posting.ts';

afterEach(() => vi.useRealTimers());

describe('postingState', () => {
  const now = Date.parse('2026-03-01T10:00:00.000Z');

  it('keeps plain members out of an admin-only panel, but not its admins', () => {
    expect(postingState({ myRole: 'member', postingRole: 'admin' }, now)).toEqual({
      mode: 'read-only',
      text: 'Only admins can post in this panel',
    });
    expect(postingState({ myRole: 'admin', postingRole: 'admin' }, now).mode).toBe('open');
    expect(postingState({ myRole: 'member', postingRole: 'member' }, now).mode).toBe('open');
  });

  it('says until when I am muted, and forgets a mute that has ended', () => {
    const until = '2026-03-01T10:05:00.000Z';
    const muted = postingState({ myRole: 'member', myMutedUntil: until }, now);
    expect(muted).toEqual({
      mode: 'muted',
      until: Date.parse(until),
      text: `You are muted in this group until ${formatTime(until)}`,
    });
    expect(postingState({ myRole: 'member', myMutedUntil: until }, Date.parse(until) + 1).mode).toBe('open');
  });
});

describe('usePosting', () => {
  it('re-opens the composer by itself when the mute ends', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01T10:00:00.000Z') });
    const until = '2026-03-01T10:10:00.000Z';
    const { result } = renderHook(() => usePosting({ myRole: 'member', postingRole: 'member', myMutedUntil: until }));
    expect(result.current.mode).toBe('muted');
    act(() => vi.advanceTimersByTime(9 * 60_000));
    expect(result.current.mode).toBe('muted');
    act(() => vi.advanceTimersByTime(60_000 + 100));
    expect(result.current.mode).toBe('open');
  });

  it('lifts the mute at once when it is removed early', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01T10:00:00.000Z') });
    const { result, rerender } = renderHook((props: { until?: string }) => usePosting({ myMutedUntil: props.until }), {
      initialProps: { until: '2026-03-08T10:00:00.000Z' } as { until?: string },
    });
    expect(result.current.mode).toBe('muted');
    rerender({ until: undefined });
    expect(result.current.mode).toBe('open');
  });
});

describe('Composer while muted', () => {
  it('is disabled and says why', () => {
    render(
      <Composer
        placeholder="Message #general"
        members={[alice, bob]}
        me={alice}
        users={users}
        replyTo={null}
        disabled
        notice="You are muted in this group until 14:05"
        onCancelReply={vi.fn()}
        onSend={vi.fn()}
        onTyping={vi.fn()}
        upload={() => ({ promise: new Promise(() => undefined), abort: vi.fn() })}
      />,
    );
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('You are muted in this group until 14:05');
  });
});
