import { useTranslation } from 'react-i18next';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';

export function TypingIndicator(props: { converseId: string }) {
  const { t } = useTranslation();
  const typing = useStore((s) => s.typing[props.converseId]);
  const users = useStore((s) => s.users);
  const names = Object.keys(typing ?? {}).map((id) => displayName(users[id]));
  let text = '';
  if (names.length === 1) text = t('timeline.typing.one', { name: names[0] });
  else if (names.length === 2) text = t('timeline.typing.two', { first: names[0], second: names[1] });
  else if (names.length > 2) text = t('timeline.typing.several', { count: names.length });
  return (
    <div className="typing" aria-live="polite" data-testid="typing">
      {text}
    </div>
  );
}
