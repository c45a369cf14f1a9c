import { onTestFinished } from 'vitest';
import { useConfirmation } from '../components/common/confirm.ts';

/**
 * Answers every in-app confirmation (confirmAction) for the rest of the test,
 * as a user clicking the dialog's buttons would: `answer.yes` says which. The
 * questions asked are kept in `answer.asked`.
 */
export function answerConfirmations(yes: boolean) {
  const answer = { yes, asked: [] as string[] };
  const stop = useConfirmation.subscribe((s) => {
    if (!s.pending) return;
    answer.asked.push(s.pending.message);
    s.pending.answer(answer.yes);
  });
  onTestFinished(stop);
  return answer;
}
