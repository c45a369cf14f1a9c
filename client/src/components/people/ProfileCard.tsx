import { useTranslation } from 'react-i18next';
import type { PublicUser } from '@im/protocol';
import { useEffect, useRef } from 'react';
import { startDm } from '../../state/groups.ts';
import { loadPresence } from '../../state/presence.ts';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { CustomStatus } from '../status/CustomStatus.tsx';
import { presenceLabel } from '../../state/status.ts';
import { BotBadge } from '../messages/BotBadge.tsx';
import { RoleChips } from '../groups/roles/RoleChips.tsx';
import { useMemberRoles } from '../groups/roles/useGroupRoles.ts';
import { BlockButton } from '../safety/BlockButton.tsx';
import { useKeepInViewport } from './useKeepInViewport.ts';

/**
 * Who someone is, on a click of their name: avatar, names, whether they are
 * online, their roles in the open group, and a way to message them. Its opener closes it (see useMenu):
 * Escape, a click outside or the opener again.
 */
export function ProfileCard(props: { user: PublicUser; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = props;
  const box = useRef<HTMLDivElement>(null);
  const online = useStore((s) => s.presence[user.id]);
  const status = useStore((s) => s.statuses[user.id]);
  const meId = useStore((s) => s.me?.id);
  const groupId = useStore((s) => (s.route.name === 'group' ? s.route.groupId : undefined));
  const { roles, color } = useMemberRoles(groupId, user.id);
  useKeepInViewport(box);
  useEffect(() => {
    if (useStore.getState().presence[user.id] === undefined) void loadPresence([user.id]);
    // Asked once per opening: the presence events keep it current afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('button')?.focus();
  }, []);
  const canMessage = user.id !== meId && !user.bot;
  return (
    <div
      ref={box}
      className="profile-card"
      role="dialog"
      aria-label={t('shell.profile.of', { name: displayName(user) })}
    >
      <Avatar user={user} size={64} online={online ?? false} status={status} />
      <div className="profile-names">
        <strong className="profile-name" style={color ? { color } : undefined}>
          {displayName(user)}
        </strong>
        {user.bot && (
          <>
            {' '}
            <BotBadge />
          </>
        )}
        <div className="hint">@{user.username}</div>
        <div className="profile-presence" data-testid="profile-presence">
          {presenceLabel(status, online)}
        </div>
        <CustomStatus status={status} />
        <RoleChips roles={roles} />
      </div>
      {canMessage && (
        <button
          type="button"
          className="primary"
          onClick={() => {
            props.onClose();
            void startDm(user.id);
          }}
        >
          {t('shell.profile.message')}
        </button>
      )}
      {canMessage && <BlockButton userId={user.id} />}
    </div>
  );
}
