import { useTranslation } from 'react-i18next';
import type { Message } from '@im/protocol';
import { remindMe } from '../../state/scheduled.ts';
import { remindChoices } from '../messages/later-times.ts';
import { LaterMenu } from './LaterMenu.tsx';

/** "Remind me" among a message's actions: a time, then a confirmation saying when. */
export function RemindMeButton(props: { message: Message }) {
  const { t } = useTranslation();
  return (
    <LaterMenu
      label={t('scheduled.remindMe')}
      icon="clock"
      choices={() => remindChoices(new Date())}
      confirm={t('scheduled.remindMe')}
      onPick={(at) => void remindMe(props.message, at)}
    />
  );
}
