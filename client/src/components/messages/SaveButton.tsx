import { useTranslation } from 'react-i18next';
import type { Message } from '@im/protocol';
import { toggleSaved, useSaved } from '../../state/saved.ts';
import { Icon } from '../common/Icon.tsx';

/** "Save" / "Remove from saved" in a message's actions. */
export function SaveButton(props: { message: Message }) {
  const { t } = useTranslation();
  const saved = useSaved((s) => s.ids[props.message.id] === true);
  const label = saved ? t('posts.unsave') : t('posts.save');
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={saved}
      onClick={() => void toggleSaved(props.message)}
    >
      <Icon name="bookmark" size={18} />
    </button>
  );
}
