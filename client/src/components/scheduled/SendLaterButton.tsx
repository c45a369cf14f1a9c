import { useTranslation } from 'react-i18next';
import { sendLaterChoices } from '../messages/later-times.ts';
import { LaterMenu } from './LaterMenu.tsx';

/** "Send later" beside Send: in an hour, tomorrow or Monday at 9:00, or a date and time. */
export function SendLaterButton(props: { disabled: boolean; onPick: (at: Date) => void }) {
  const { t } = useTranslation();
  return (
    <LaterMenu
      label={t('scheduled.sendLater')}
      icon="clock"
      className="send-later"
      disabled={props.disabled}
      choices={() => sendLaterChoices(new Date())}
      confirm={t('scheduled.schedule')}
      onPick={props.onPick}
    />
  );
}
