import type { Member, Role } from '@im/protocol';
import { useId, useState } from 'react';
import { giveRole, takeRole } from '../../../state/roles.ts';
import { ErrorLine } from '../../common/ErrorLine.tsx';
import { useAction } from '../../common/useAction.ts';

/** A checkbox per custom role of the group: ticking gives it to the member, unticking takes it (at once). */
export function MemberRolesPicker(props: { groupId: string; member: Member; name: string; roles: Role[] }) {
  const { groupId, member } = props;
  const titleId = useId();
  const { busy, error, run } = useAction();
  // The box shows the asked-for state while its request runs, then the member's.
  const [asked, setAsked] = useState<{ roleId: string; on: boolean } | null>(null);
  const custom = props.roles.filter((r) => r.id !== groupId);
  return (
    <fieldset className="role-picker" aria-labelledby={titleId} disabled={busy}>
      <legend id={titleId}>{`Roles of ${props.name}`}</legend>
      {custom.length === 0 && <p className="hint">No roles yet: create them in the Roles tab.</p>}
      {custom.map((role) => (
        <label key={role.id} className="check">
          <input
            type="checkbox"
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
