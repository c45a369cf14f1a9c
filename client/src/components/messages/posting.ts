import { t } from '../../i18n/i18n.ts';
import type { GroupRole, Panel } from '@im/protocol';
import { useEffect, useState } from 'react';
import { formatMoment } from './format.ts';

/** Whether I may post in the open converse, and what to say when not. */
export type Posting =
  | { mode: 'open' }
  /** Muted: the composer stays, disabled, with the mute's end. */
  | { mode: 'muted'; until: number; text: string }
  /** An admin-only panel and I am a plain member: no composer at all. */
  | { mode: 'read-only'; text: string };

export interface PostingInput {
  myRole?: GroupRole;
  postingRole?: Panel['postingRole'];
  myMutedUntil?: string;
}

export function postingState(input: PostingInput, now: number): Posting {
  if (input.postingRole === 'admin' && input.myRole === 'member') {
    return { mode: 'read-only', text: t('composer.readOnly') };
  }
  const until = input.myMutedUntil ? Date.parse(input.myMutedUntil) : NaN;
  if (until > now) {
    return {
      mode: 'muted',
      until,
      text: t('composer.mutedUntil', { when: formatMoment(input.myMutedUntil!, new Date(now)) }),
    };
  }
  return { mode: 'open' };
}

// setTimeout takes at most 2^31-1 ms (about 24 days); a longer mute is checked again then.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** postingState, kept current: a mute's end re-opens the composer by itself. */
export function usePosting(input: PostingInput): Posting {
  const { myRole, postingRole, myMutedUntil } = input;
  // `now` only moves forward on a timer; a stale one can only show a mute as still on, which the timer ends.
  const [now, setNow] = useState(() => Date.now());
  const state = postingState({ myRole, postingRole, myMutedUntil }, now);
  const until = state.mode === 'muted' ? state.until : null;
  useEffect(() => {
    if (until === null) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(MAX_TIMER_MS, Math.max(0, until - Date.now()) + 50));
    return () => clearTimeout(timer);
  }, [until, now]);
  return state;
}
