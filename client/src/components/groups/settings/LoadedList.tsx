import { Fragment, type ReactNode } from 'react';
import { ErrorLine } from '../../common/ErrorLine.tsx';
import type { Loaded } from '../../moderation/useLoaded.ts';

/**
 * A settings list as it loads: its failure, "Loading …" until the first
 * answer, "No … yet." when empty, then a row for each item. A row is handed
 * `removed`, which takes its item out of the list (after a delete) and tells
 * `onRemoved`.
 */
export function LoadedList<T>(props: {
  loaded: Loaded<T[]>;
  /** The list's name ("Bots"); its lower case names it in the hints. */
  label: string;
  keyOf: (item: T) => string;
  onRemoved?: (key: string) => void;
  children: (item: T, removed: () => void) => ReactNode;
}) {
  const { loaded, label, keyOf } = props;
  const what = label.toLowerCase();
  const remove = (key: string) => {
    loaded.update((list) => list.filter((i) => keyOf(i) !== key));
    props.onRemoved?.(key);
  };
  return (
    <>
      {!loaded.data && <ErrorLine error={loaded.error} />}
      {!loaded.data && !loaded.error && <p className="hint">{`Loading ${what}…`}</p>}
      {loaded.data?.length === 0 && <p className="hint">{`No ${what} yet.`}</p>}
      <ul className="mod-list" aria-label={label}>
        {loaded.data?.map((item) => {
          const key = keyOf(item);
          return <Fragment key={key}>{props.children(item, () => remove(key))}</Fragment>;
        })}
      </ul>
    </>
  );
}
