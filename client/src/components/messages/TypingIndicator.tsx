import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';

export function TypingIndicator(props: { converseId: string }) {
  const typing = useStore((s) => s.typing[props.converseId]);
  const users = useStore((s) => s.users);
  const names = Object.keys(typing ?? {}).map((id) => displayName(users[id]));
  let text = '';
  if (names.length === 1) text = `${names[0]} is typing…`;
  else if (names.length === 2) text = `${names[0]} and ${names[1]} are typing…`;
  else if (names.length > 2) text = 'Several people are typing…';
  return (
    <div className="typing" aria-live="polite" data-testid="typing">
      {text}
    </div>
  );
}
