import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../../api/errors.ts';

export interface Loaded<T> {
  /** undefined until the first answer. */
  data: T | undefined;
  error: string | null;
  reload(): void;
  /** Changes what is shown after an action, without asking the server again. */
  update(change: (data: T) => T): void;
}

/** Loads what a view shows when `key` changes (and on reload); a failure becomes a sentence. */
export function useLoaded<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: string | null }>({ data: undefined, error: null });
  const [version, setVersion] = useState(0);
  const loader = useRef(load);
  useEffect(() => {
    loader.current = load;
  });
  useEffect(() => {
    let live = true;
    loader.current().then(
      (data) => live && setState({ data, error: null }),
      (err: unknown) => live && setState((s) => ({ ...s, error: describeError(err) })),
    );
    return () => {
      live = false;
    };
  }, [key, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const update = useCallback(
    (change: (data: T) => T) => setState((s) => (s.data === undefined ? s : { ...s, data: change(s.data) })),
    [],
  );
  return { data: state.data, error: state.error, reload, update };
}
