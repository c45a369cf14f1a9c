import { useState } from 'react';
import { useAction } from '../../../common/useAction.ts';

/**
 * A create form's state: its draft, the problem found in it, and the request
 * that makes the thing. What is shown below the fields is the problem, else
 * the server's refusal.
 */
export function useCreateForm<D extends object>(empty: D) {
  const [draft, setDraft] = useState<D>(empty);
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const edit = (change: Partial<D>) => setDraft((d) => ({ ...d, ...change }));
  /**
   * The InlineForm's props. On submit `check` answers the body to send with
   * `create`, or a sentence: the problem with the draft (then nothing is
   * sent). Once made, the draft empties and `onCreated` has what was made.
   */
  const frame = <B extends object, M>(
    check: () => B | string,
    create: (body: B) => Promise<M>,
    onCreated: (made: M) => void,
  ) => ({
    busy,
    error: problem ?? error,
    noValidate: true,
    onSubmit: async () => {
      const checked = check();
      setProblem(typeof checked === 'string' ? checked : null);
      if (typeof checked === 'string') return;
      await run(async () => {
        const made = await create(checked);
        setDraft(empty);
        onCreated(made);
      });
    },
  });
  return { draft, edit, problem, frame };
}
