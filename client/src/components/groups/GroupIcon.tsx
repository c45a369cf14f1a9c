import type { Group } from '@im/protocol';
import { useState } from 'react';
import { useFileUrl } from '../../state/file-urls.ts';
import { Initials } from '../common/Initials.tsx';

/** The first two characters of a group's name: what shows where it has no icon. */
export const groupInitials = (name: string): string => [...name].slice(0, 2).join('');

/** A group's icon when it has one (read through a signed URL), else its initials; the container gives the size. */
export function GroupIcon(props: { group: Pick<Group, 'name' | 'icon'> }) {
  const initials = groupInitials(props.group.name);
  return props.group.icon ? (
    <IconPicture key={props.group.icon} fileId={props.group.icon} fallback={initials} />
  ) : (
    <Initials text={initials} />
  );
}

/** Initials until the URL is known, and again if the picture cannot be loaded. */
function IconPicture(props: { fileId: string; fallback: string }) {
  const url = useFileUrl(props.fileId);
  const [failed, setFailed] = useState(false);
  if (!url || failed) return <Initials text={props.fallback} />;
  return (
    <img
      className="group-icon-picture"
      src={url}
      alt=""
      data-testid="group-icon"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
    />
  );
}
