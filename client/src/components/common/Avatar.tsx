import type { PublicUser } from '@im/protocol';
import { displayName } from '../../state/users.ts';

const COLORS = ['#5865f2', '#3ba55d', '#faa61a', '#ed4245', '#eb459e', '#00a8fc', '#9b59b6', '#e67e22'];

function colorOf(key: string): string {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  return COLORS[Math.abs(hash) % COLORS.length]!;
}

/** Initials on a colour of the user's own; the presence dot when `online` is given. */
export function Avatar(props: { user?: PublicUser; name?: string; size?: number; online?: boolean }) {
  const name = props.name ?? displayName(props.user, '?');
  const size = props.size ?? 36;
  const initials = [...name.trim()].slice(0, 2).join('').toUpperCase() || '?';
  return (
    <span
      className="avatar"
      style={{ width: size, height: size, fontSize: size * 0.4, background: colorOf(props.user?.id ?? name) }}
      aria-hidden="true"
    >
      {initials}
      {props.online !== undefined && <span className={props.online ? 'presence online' : 'presence'} />}
    </span>
  );
}
