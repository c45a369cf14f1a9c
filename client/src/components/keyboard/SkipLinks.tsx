import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import './keyboard.css';

/** The open converse's composer, and its message list's one Tab stop. */
const COMPOSER = '.converse .composer textarea';
const MESSAGES = '.converse [data-message-key][tabindex="0"]';

/**
 * The shell's first Tab stops, shown only while focused: straight to the
 * open converse's composer or its messages, past the groups and panels.
 */
export function SkipLinks() {
  const { t } = useTranslation();
  const skip = (selector: string) => (event: MouseEvent) => {
    event.preventDefault();
    document.querySelector<HTMLElement>(selector)?.focus();
  };
  return (
    <nav className="skip-links" aria-label={t('keyboard.skip.label')}>
      <a href="#composer" className="skip-link" onClick={skip(COMPOSER)}>
        {t('keyboard.skip.composer')}
      </a>
      <a href="#messages" className="skip-link" onClick={skip(MESSAGES)}>
        {t('keyboard.skip.messages')}
      </a>
    </nav>
  );
}
