import { useCallback, useState } from 'react';
import { describeError } from '../../api/errors.ts';

/**
 * One user action at a time (a button's request): `busy` while it runs, its
 * failure as a sentence in `error`. `run` answers whether it succeeded.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (task: () => Promise<unknown>, explain: (err: unknown) => string = describeError): Promise<boolean> => {
      setBusy(true);
      setError(null);
      try {
        await task();
        return true;
      } catch (err) {
        setError(explain(err));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [],
  );
  return { busy, error, run };
}
