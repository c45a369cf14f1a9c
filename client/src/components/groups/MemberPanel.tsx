import { useTranslation } from 'react-i18next';
import type { Group, Member } from '@im/protocol';
import { loadMembers, removeMember, setMemberRole, startDm } from '../../state/groups.ts';
import { notify, useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { CustomStatus } from '../status/CustomStatus.tsx';
import { presenceLabel } from '../../state/status.ts';
import { useMenu } from '../common/useMenu.ts';
import { BotBadge } from '../messages/BotBadge.tsx';
import { mayManageRole, mayModerate, nameColor, rolesOf } from '../../state/permissions.ts';
import { giveRole, takeRole } from '../../state/roles.ts';
import { describeError } from '../../api/errors.ts';
import { RoleChips } from './roles/RoleChips.tsx';
import { useGroupRoles } from './roles/useGroupRoles.ts';
import { whenConfirmed } from '../common/confirm.ts';

const ROLE_LABEL = { owner: 'groups.role.owner', admin: 'groups.role.admin', member: 'groups.role.member' } as const;

/** The group's members, online first, with what I may do to each. */
export function MemberPanel(props: { group: Group }) {
  const { t } = useTranslation();
  const { group } = props;
  const list = useStore((s) => s.members[group.id]);
  const presence = useStore((s) => s.presence);
  const meId = useStore((s) => s.me?.id);
  const items = list?.items ?? [];
  const online = items.filter((m) => presence[m.user.id]);
  const offline = items.filter((m) => !presence[m.user.id]);
  return (
    <aside className="members" aria-label={t('groups.members')}>
      <h2>{t('groups.panel.members', { count: group.memberCount })}</h2>
      <MemberSection
        title={t('groups.panel.online', { count: online.length })}
        members={online}
        group={group}
        meId={meId}
        online
      />
      <MemberSection
        title={t('groups.panel.offline', { count: offline.length })}
        members={offline}
        group={group}
        meId={meId}
        online={false}
      />
      {list?.nextCursor && (
        <button type="button" className="link pad" disabled={list.loading} onClick={() => void loadMembers(group.id)}>
          {t('groups.members.more')}
        </button>
      )}
    </aside>
  );
}

function MemberSection(props: { title: string; members: Member[]; group: Group; meId?: string; online: boolean }) {
  if (props.members.length === 0) return null;
  return (
    <section>
      <h3>{props.title}</h3>
      <ul>
        {props.members.map((m) => (
          <MemberRow key={m.user.id} member={m} group={props.group} meId={props.meId} online={props.online} />
        ))}
      </ul>
    </section>
  );
}

function MemberRow(props: { member: Member; group: Group; meId?: string; online: boolean }) {
  const { t } = useTranslation();
  const { member, group } = props;
  const status = useStore((s) => s.statuses[member.user.id]);
  const { open, setOpen, ref } = useMenu<HTMLLIElement>();
  const self = member.user.id === props.meId;
  const canPromote = group.myRole === 'owner' && !self && member.role !== 'owner';
  const roles = useGroupRoles(group.id);
  const canKick = mayModerate(group, member, props.meId, 'kickMembers', roles);
  const color = nameColor(member.roleIds, roles);
  const giveable = roles.filter((r) => r.id !== group.id && mayManageRole(group, r, roles));
  return (
    <li
      ref={ref}
      className="member"
      data-testid="member"
      data-online={props.online}
      data-presence={presenceLabel(status, props.online)}
    >
      <button type="button" className="member-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Avatar user={member.user} size={28} online={props.online} status={status} />
        <span className="member-name" style={color ? { color } : undefined}>
          {displayName(member.user)}
          <CustomStatus status={status} />
        </span>
        {member.user.bot && <BotBadge />}
        {member.role !== 'member' && <span className="role">{t(ROLE_LABEL[member.role])}</span>}
      </button>
      <RoleChips roles={rolesOf(member.roleIds, roles)} />
      {open && (
        <div className="menu" role="menu" onClick={() => setOpen(false)}>
          <div className="menu-title">@{member.user.username}</div>
          {!self && (
            <button type="button" role="menuitem" onClick={() => void startDm(member.user.id)}>
              {t('groups.member.message')}
            </button>
          )}
          {canPromote && (
            <button
              type="button"
              role="menuitem"
              onClick={() => void setMemberRole(group.id, member.user.id, member.role === 'admin' ? 'member' : 'admin')}
            >
              {member.role === 'admin' ? t('groups.members.unadmin') : t('groups.members.admin')}
            </button>
          )}
          {giveable.map((role) => {
            const held = member.roleIds.includes(role.id);
            return (
              <button
                key={role.id}
                type="button"
                role="menuitem"
                onClick={() =>
                  void (held ? takeRole : giveRole)(group.id, member.user.id, role.id).catch((err: unknown) =>
                    notify(t('groups.member.rolesFailed', { reason: describeError(err) })),
                  )
                }
              >
                {held
                  ? t('groups.member.takeRole', { role: role.name })
                  : t('groups.member.giveRole', { role: role.name })}
              </button>
            );
          })}
          {canKick && (
            <button
              type="button"
              role="menuitem"
              className="danger"
              onClick={() =>
                whenConfirmed(
                  {
                    message: 'shell.confirm.removeMember',
                    values: { name: displayName(member.user), group: group.name },
                    confirm: 'shell.confirm.remove',
                  },
                  () => removeMember(group.id, member.user.id),
                )
              }
            >
              {t('groups.member.remove')}
            </button>
          )}
        </div>
      )}
    </li>
  );
}
