import { useTranslation } from 'react-i18next';
import type { Member } from '@im/protocol';
import { useId, useState } from 'react';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { useGroupRoles } from './roles/useGroupRoles.ts';
import './roles/roles.css';

/** Who sees a panel, as the panel settings edit it before saving. */
export interface PanelAccess {
  private: boolean;
  allowRoleIds: string[];
  allowUserIds: string[];
}

/** How many members the people list shows for a search at most. */
const SHOWN_PEOPLE = 20;

const toggled = (ids: string[], id: string, on: boolean) => (on ? [...ids, id] : ids.filter((i) => i !== id));

/**
 * The "Private" switch and, when on, the roles and people allowed in (owner
 * and admins always are). People are picked from the group's members, found
 * by name.
 */
export function PanelAccessFields(props: {
  groupId: string;
  value: PanelAccess;
  onChange: (value: PanelAccess) => void;
}) {
  const { t } = useTranslation();
  const { groupId, value } = props;
  const hintId = useId();
  const roles = useGroupRoles(groupId).filter((r) => r.id !== groupId);
  return (
    <>
      <label className="check">
        <input
          type="checkbox"
          role="switch"
          checked={value.private}
          aria-describedby={hintId}
          onChange={(e) => props.onChange({ ...value, private: e.target.checked })}
        />
        {t('groups.visibility.private')}
      </label>
      <p className="hint" id={hintId}>
        {t('groups.access.hint')}
      </p>
      {value.private && (
        <>
          <fieldset className="role-picker">
            <legend>{t('groups.access.roles')}</legend>
            {roles.length === 0 && <p className="hint">{t('groups.access.noRoles')}</p>}
            {roles.map((role) => (
              <label key={role.id} className="check">
                <input
                  type="checkbox"
                  checked={value.allowRoleIds.includes(role.id)}
                  onChange={(e) =>
                    props.onChange({ ...value, allowRoleIds: toggled(value.allowRoleIds, role.id, e.target.checked) })
                  }
                />
                {role.name}
              </label>
            ))}
          </fieldset>
          <AllowedPeople
            groupId={groupId}
            ids={value.allowUserIds}
            onChange={(allowUserIds) => props.onChange({ ...value, allowUserIds })}
          />
        </>
      )}
    </>
  );
}

function AllowedPeople(props: { groupId: string; ids: string[]; onChange: (ids: string[]) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const members = useStore((s) => s.members[props.groupId]?.items);
  const users = useStore((s) => s.users);
  const needle = search.trim().toLowerCase();
  const matches = (m: Member) =>
    !needle || m.user.username.toLowerCase().includes(needle) || displayName(m.user).toLowerCase().includes(needle);
  // Owner and admins see every panel: only members are offered.
  const offered = (members ?? []).filter((m) => m.role === 'member' && !props.ids.includes(m.user.id) && matches(m));
  return (
    <fieldset className="role-picker">
      <legend>{t('groups.access.people')}</legend>
      <label>
        {t('groups.access.find')}
        <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </label>
      <div className="allowed-people">
        {props.ids.map((id) => (
          <label key={id} className="check">
            <input type="checkbox" checked onChange={() => props.onChange(props.ids.filter((i) => i !== id))} />
            {displayName(users[id], id)}
          </label>
        ))}
        {offered.slice(0, SHOWN_PEOPLE).map((m) => (
          <label key={m.user.id} className="check">
            <input type="checkbox" checked={false} onChange={() => props.onChange([...props.ids, m.user.id])} />
            {displayName(m.user)} <span className="hint">@{m.user.username}</span>
          </label>
        ))}
      </div>
      {members === undefined && <p className="hint">{t('groups.members.loading')}</p>}
    </fieldset>
  );
}
