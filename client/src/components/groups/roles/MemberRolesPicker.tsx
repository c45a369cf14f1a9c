import { useTranslation } from 'react-i18next';
import type { Group, Member, Role } from '@im/protocol';
import { mayManageRole } from '../../../state/permissions.ts';
import { useId, useState } from 'react';
import { giveRole, takeRole } from '../../../state/roles.ts';
import { ErrorLine } from '../../common/ErrorLine.tsx';
import { useAction } from '../../common/useAction.ts';

/** A checkbox per custom role of the group: ticking gives it to the member, unticking takes it (at once); roles ranked at or above mine are shown but locked. */
export function MemberRolesPicker(props: { group: Group; member: Member; name: string; roles: Role[] }) {
  const { t } = useTranslation();
  const { member } = props;
  const groupId = props.group.id;
  const titleId = useId();
  const { busy, error, run } = useAction();
  // The box shows the asked-for state while its request runs, then the member's.
  const [asked, setAsked] = useState<{ roleId: string; on: boolean } | null>(null);
  const custom = props.roles.filter((r) => r.id !== groupId);
  return (
    <fieldset className="role-picker" aria-labelledby={titleId} disabled={busy}>
      <legend id={titleId}>{t('groups.members.rolesOf', { name: props.name })}</legend>
      {custom.length === 0 && <p className="hint">{t('roles.none')}</p>}
      {custom.map((role) => (
        <label key={role.id} className="check">
          <input
            type="checkbox"
            disabled={!mayManageRole(props.group, role, props.roles)}
            checked={asked?.roleId === role.id ? asked.on : member.roleIds.includes(role.id)}
            onChange={(e) => {
              const on = e.target.checked;
              setAsked({ roleId: role.id, on });
              void run(() => (on ? giveRole : takeRole)(groupId, member.user.id, role.id)).then(() => setAsked(null));
            }}
          />
          {role.name}
        </label>
      ))}
      <ErrorLine error={error} />
    </fieldset>
  );
}
