import { useTranslation } from 'react-i18next';
import type { Group, Member } from '@im/protocol';
import { useEffect, useState } from 'react';
import { loadMembers, removeMember, setMemberRole } from '../../../state/groups.ts';
import { banUser, muteMember } from '../../../state/moderation.ts';
import { useStore } from '../../../state/store.ts';
import { displayName } from '../../../state/users.ts';
import { Avatar } from '../../common/Avatar.tsx';
import { formatMoment } from '../../messages/format.ts';
import { BanForm } from './BanForm.tsx';
import { MuteControl } from './MuteControl.tsx';
import { ErrorLine } from '../../common/ErrorLine.tsx';
import { useAction } from '../../common/useAction.ts';
import { hasPermission, mayModerate, nameColor, rolesOf } from '../../../state/permissions.ts';
import { MemberRolesPicker } from '../roles/MemberRolesPicker.tsx';
import { RoleChips } from '../roles/RoleChips.tsx';
import { useGroupRoles } from '../roles/useGroupRoles.ts';
import { whenConfirmed } from '../../common/confirm.ts';

const ROLE_LABEL = { owner: 'groups.role.owner', admin: 'groups.role.admin', member: 'groups.role.member' } as const;

/** Everyone in the group with their role, roles and mute, and what I may do to each. */
export function MembersTab(props: { group: Group }) {
  const { t } = useTranslation();
  const { group } = props;
  const list = useStore((s) => s.members[group.id]);
  const meId = useStore((s) => s.me?.id);
  const loaded = list !== undefined;
  useEffect(() => {
    if (!loaded) void loadMembers(group.id);
  }, [group.id, loaded]);
  if (!list || (list.loading && list.items.length === 0)) return <p className="hint">{t('groups.members.loading')}</p>;
  return (
    <>
      <ul className="mod-list" aria-label={t('groups.members')}>
        {list.items.map((m) => (
          <MemberRow key={m.user.id} group={group} member={m} meId={meId} />
        ))}
      </ul>
      {list.nextCursor && (
        <button type="button" disabled={list.loading} onClick={() => void loadMembers(group.id)}>
          {t('groups.members.more')}
        </button>
      )}
    </>
  );
}

function MemberRow(props: { group: Group; member: Member; meId?: string }) {
  const { t } = useTranslation();
  const { group, member } = props;
  const name = displayName(member.user);
  const [banning, setBanning] = useState(false);
  const [pickingRoles, setPickingRoles] = useState(false);
  const { busy, error, run } = useAction();
  const roles = useGroupRoles(group.id);
  const color = nameColor(member.roleIds, roles);
  const canGiveRoles = hasPermission(group, 'manageRoles');
  const may = {
    kick: mayModerate(group, member, props.meId, 'kickMembers', roles),
    ban: mayModerate(group, member, props.meId, 'banMembers', roles),
    mute: mayModerate(group, member, props.meId, 'muteMembers', roles),
  };
  const canPromote = group.myRole === 'owner' && member.user.id !== props.meId && member.role !== 'owner';
  const canAct = may.kick || may.ban || may.mute || canPromote;
  const muted = member.mutedUntil !== undefined && Date.parse(member.mutedUntil) > Date.now();
  return (
    <li className="mod-item" data-testid="member-row" aria-label={name}>
      <div className="mod-line">
        <Avatar user={member.user} size={28} />
        <strong style={color ? { color } : undefined}>{name}</strong>{' '}
        <span className="hint">@{member.user.username}</span>
        <span className="role">{t(ROLE_LABEL[member.role])}</span>
        <RoleChips roles={rolesOf(member.roleIds, roles)} />
        {muted && (
          <span className="muted-badge">
            {t('groups.members.mutedUntil', { until: formatMoment(member.mutedUntil!) })}
          </span>
        )}
      </div>
      {(canAct || canGiveRoles) && (
        <div className="mod-actions">
          {canGiveRoles && (
            <button
              type="button"
              aria-label={t('groups.members.rolesOf', { name })}
              aria-expanded={pickingRoles}
              onClick={() => setPickingRoles(!pickingRoles)}
            >
              {t('groups.members.roles')}
            </button>
          )}
          {canAct && (
            <>
              {canPromote && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    void run(() =>
                      setMemberRole(group.id, member.user.id, member.role === 'admin' ? 'member' : 'admin'),
                    )
                  }
                >
                  {member.role === 'admin' ? t('groups.members.unadmin') : t('groups.members.admin')}
                </button>
              )}
              {may.mute && (
                <MuteControl
                  name={name}
                  mutedUntil={member.mutedUntil}
                  busy={busy}
                  onMute={(seconds) => void run(() => muteMember(group.id, member.user.id, seconds))}
                />
              )}
              {may.kick && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    whenConfirmed(
                      {
                        message: 'shell.confirm.removeMember',
                        values: { name, group: group.name },
                        confirm: 'shell.confirm.remove',
                      },
                      () => removeMember(group.id, member.user.id),
                    )
                  }
                >
                  {t('groups.members.remove')}
                </button>
              )}
              {may.ban && (
                <button type="button" className="danger" aria-expanded={banning} onClick={() => setBanning(!banning)}>
                  {t('groups.members.ban')}
                </button>
              )}
            </>
          )}
        </div>
      )}
      {pickingRoles && <MemberRolesPicker group={group} member={member} name={name} roles={roles} />}
      {banning && (
        <BanForm
          name={name}
          busy={busy}
          onCancel={() => setBanning(false)}
          onBan={(reason) => void run(() => banUser(group.id, member.user.id, reason))}
        />
      )}
      <ErrorLine error={error} />
    </li>
  );
}
