import { useState, type ReactNode } from 'react';
import { ShownOnce } from './ShownOnce.tsx';

/** What `useShownOnce` shows of something made: its token or secret, and whose it is. */
export interface Secret {
  label: string;
  value: string;
  /** The id of what it belongs to, so that deleting that hides it. */
  id?: string;
}

/**
 * Something just made with a token or secret, kept until Done (or until what
 * it belongs to is deleted). `view` is its ShownOnce, or nothing.
 */
export function useShownOnce<M>(
  testId: string,
  describe: (made: M) => Secret,
): { view: ReactNode; show: (made: M) => void; forget: (id: string) => void } {
  const [made, setMade] = useState<{ made: M } | null>(null);
  const secret = made && describe(made.made);
  return {
    view: secret && (
      <ShownOnce
        key={secret.value}
        label={secret.label}
        value={secret.value}
        testId={testId}
        onDone={() => setMade(null)}
      />
    ),
    show: (m) => setMade({ made: m }),
    forget: (id) => setMade((m) => (m && describe(m.made).id === id ? null : m)),
  };
}
