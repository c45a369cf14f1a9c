import { useTranslation } from 'react-i18next';
import { markConverseRead } from '../../state/conversations.ts';
import { useStore } from '../../state/store.ts';
import { Icon } from '../common/Icon.tsx';
import './attention.css';

/** "Mark as read" on a sidebar entry with unread messages: reads it up to its newest without opening it. */
export function MarkReadButton(props: { converseId: string; name: string }) {
  const { t } = useTranslation();
  const unread = useStore((s) => s.unread[props.converseId]?.unread ?? 0);
  if (unread <= 0) return null;
  return (
    <button
      type="button"
      className="icon-button mark-read"
      aria-label={t('attention.markRead.label', { name: props.name })}
      title={t('attention.markRead')}
      data-testid="mark-read"
      onClick={() => markConverseRead(props.converseId)}
    >
      <Icon name="check" size={16} />
    </button>
  );
}
