import { useTranslation } from 'react-i18next';
import { useState, type KeyboardEvent, type ReactNode } from 'react';

/**
 * `||text||`: covered until the reader clicks it or presses Enter/Space on
 * it. While covered its content is inert (links in it cannot be followed
 * blindly) and it is announced as a spoiler, not read out.
 */
export function Spoiler(props: { children: ReactNode }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  if (shown) return <span className="spoiler shown">{props.children}</span>;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    setShown(true);
  };
  return (
    <span
      className="spoiler"
      role="button"
      tabIndex={0}
      aria-label={t('posts.spoiler')}
      onClick={() => setShown(true)}
      onKeyDown={onKeyDown}
    >
      <span className="spoiler-text" inert aria-hidden="true">
        {props.children}
      </span>
    </span>
  );
}
