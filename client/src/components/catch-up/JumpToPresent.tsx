import './catch-up.css';
import { useTranslation } from 'react-i18next';

/**
 * Offered while the newest messages are out of view (scrolled up, or a window
 * opened on older ones), with how many new ones wait below.
 */
export function JumpToPresent(props: { count: number; onJump: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="jump-present" data-testid="jump-to-present" onClick={props.onJump}>
      {t('timeline.jumpToPresent', { count: props.count })}
      <span aria-hidden="true"> ↓</span>
    </button>
  );
}
