import type { Permission, Role } from '@im/protocol';
import { useState } from 'react';
import { updateRole, type RolePatch } from '../../../state/roles.ts';
import { InlineForm } from '../settings/InlineForm.tsx';
import { useAction } from '../../common/useAction.ts';
import { PermissionChecks } from './PermissionChecks.tsx';

export const DEFAULT_ROLE_COLOR = '#5865f2';
export const MAX_ROLE_NAME = 32;

/** A role's name, colour and permissions, saved together; of `@everyone` only its permissions. */
export function RoleEditor(props: {
  groupId: string;
  role: Role;
  everyone: boolean;
  /** The permissions I may hand out: those I hold. */
  grantable: readonly Permission[];
  onDone: () => void;
}) {
  const { role } = props;
  const [name, setName] = useState(role.name);
  const [colored, setColored] = useState(role.color !== undefined);
  const [color, setColor] = useState(role.color ?? DEFAULT_ROLE_COLOR);
  const [permissions, setPermissions] = useState<Permission[]>(role.permissions);
  const { busy, error, run } = useAction();
  const submit = async () => {
    const patch: RolePatch = { permissions };
    if (!props.everyone) {
      if (name.trim() !== role.name) patch.name = name.trim();
      // An empty colour takes the role's away.
      const wanted = colored ? color : '';
      if (wanted !== (role.color ?? '')) patch.color = wanted;
    }
    if (await run(() => updateRole(props.groupId, role.id, patch))) props.onDone();
  };
  return (
    <InlineForm
      label={`Edit role ${role.name}`}
      submit="Save role"
      busy={busy || !name.trim()}
      error={error}
      onSubmit={submit}
    >
      {!props.everyone && (
        <div className="field-row">
          <label>
            Role name
            <input value={name} maxLength={MAX_ROLE_NAME} required onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            Role colour
            <input
              type="color"
              className="role-color"
              value={color}
              disabled={!colored}
              onChange={(e) => setColor(e.target.value)}
            />
          </label>
        </div>
      )}
      {!props.everyone && (
        <label className="check">
          <input type="checkbox" checked={colored} onChange={(e) => setColored(e.target.checked)} />
          Colour its members' names
        </label>
      )}
      <PermissionChecks value={permissions} grantable={props.grantable} onChange={setPermissions} />
    </InlineForm>
  );
}
