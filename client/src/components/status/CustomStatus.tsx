import type { PresenceStatus } from '@im/protocol';

/** Someone's custom status (emoji and text) beside their name; nothing when they set none. */
export function CustomStatus(props: {
  status: Pick<PresenceStatus, 'text' | 'emoji'> | undefined;
  className?: string;
}) {
  const { text, emoji } = props.status ?? {};
  if (!text && !emoji) return null;
  return (
    <span className={props.className ?? 'custom-status'} data-testid="custom-status" title={text}>
      {emoji && <span className="custom-status-emoji">{emoji}</span>}
      {emoji && text ? ' ' : ''}
      {text}
    </span>
  );
}
