import type { Message } from '@im/protocol';
import { remindMe } from '../../state/scheduled.ts';
import { remindChoices } from '../messages/later-times.ts';
import { LaterMenu } from './LaterMenu.tsx';

/** "Remind me" among a message's actions: a time, then a confirmation saying when. */
export function RemindMeButton(props: { message: Message }) {
  return (
    <LaterMenu
      label="Remind me"
      icon="clock"
      choices={() => remindChoices(new Date())}
      confirm="Remind me"
      onPick={(at) => void remindMe(props.message, at)}
    />
  );
}
