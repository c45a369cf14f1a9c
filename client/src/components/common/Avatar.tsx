import type { PresenceStatus, PublicUser } from '@im/protocol';
import { useState } from 'react';
import { useFileUrl } from '../../state/file-urls.ts';
import { displayName } from '../../state/users.ts';
import { Initials } from './Initials.tsx';

/** How many avatar colours the themes define (--avatar-0 to --avatar-7, each under white initials at 4.5:1). */
const COLORS = 8;

function colorOf(key: string): string {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  return `var(--avatar-${Math.abs(hash) % COLORS})`;
}

/** A file of this server (its download or thumbnail path), read through a signed URL. */
const OWN_FILE = /^\/api\/files\/([0-9a-f]{24})(\/thumbnail)?$/;

/** The dot's look: do not disturb (red) over away (yellow moon) over online (green); grey when offline. */
function dotClass(online: boolean, status: PresenceStatus | undefined): string {
  if (status?.dnd) return 'presence dnd';
  if (!online) return 'presence';
  return status?.away ? 'presence away' : 'presence online';
}

/**
 * The user's picture when they have one, else initials on a colour of their
 * own; the presence dot when `online` is given (`status` adds away and do not disturb).
 */
export function Avatar(props: {
  user?: PublicUser;
  name?: string;
  size?: number;
  online?: boolean;
  status?: PresenceStatus | undefined;
}) {
  const name = props.name ?? displayName(props.user, '?');
  const size = props.size ?? 36;
  const initials = [...name.trim()].slice(0, 2).join('').toUpperCase() || '?';
  // A webhook's own name is shown with initials, never with its bot's picture.
  const picture = props.name === undefined ? props.user?.avatar : undefined;
  return (
    <span
      className="avatar"
      style={{ width: size, height: size, fontSize: size * 0.4, background: colorOf(props.user?.id ?? name) }}
      aria-hidden="true"
      data-testid="avatar"
    >
      {picture ? <Picture avatar={picture} fallback={initials} /> : <Initials text={initials} />}
      {props.online !== undefined && (
        <span className={dotClass(props.online, props.status)} data-testid="presence-dot" />
      )}
    </span>
  );
}

function Picture(props: { avatar: string; fallback: string }) {
  const own = OWN_FILE.exec(props.avatar);
  return own ? (
    <OwnFilePicture key={own[1]} fileId={own[1]!} fallback={props.fallback} />
  ) : (
    <Img key={props.avatar} src={props.avatar} fallback={props.fallback} />
  );
}

function OwnFilePicture(props: { fileId: string; fallback: string }) {
  const url = useFileUrl(props.fileId);
  return url ? <Img src={url} fallback={props.fallback} /> : <Initials text={props.fallback} />;
}

/** A picture that cannot be loaded leaves the initials. */
function Img(props: { src: string; fallback: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <Initials text={props.fallback} />;
  return <img src={props.src} alt="" referrerPolicy="no-referrer" onError={() => setFailed(true)} />;
}
