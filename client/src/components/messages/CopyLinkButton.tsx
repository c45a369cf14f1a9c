import type { Message } from '@im/protocol';
import { useTranslation } from 'react-i18next';
import { Icon } from '../common/Icon.tsx';

/** A message action: copies the message's permalink. */
export function CopyLinkButton(props: { message: Message; onCopy: (message: Message) => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" aria-label={t('timeline.copyLink')} onClick={() => props.onCopy(props.message)}>
      <Icon name="link" size={18} />
    </button>
  );
}
