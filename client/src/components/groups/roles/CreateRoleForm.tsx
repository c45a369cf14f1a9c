import { useState } from 'react';
import { createRole } from '../../../state/roles.ts';
import { InlineForm } from '../settings/InlineForm.tsx';
import { useAction } from '../../common/useAction.ts';
import { DEFAULT_ROLE_COLOR, MAX_ROLE_NAME } from './RoleEditor.tsx';

/** A new role: its name and, if wanted, the colour its holders' names take. Permissions are ticked afterwards. */
export function CreateRoleForm(props: { groupId: string }) {
  const [name, setName] = useState('');
  const [colored, setColored] = useState(true);
  const [color, setColor] = useState(DEFAULT_ROLE_COLOR);
  const { busy, error, run } = useAction();
  const submit = async () => {
    const draft = { name: name.trim(), permissions: [], ...(colored ? { color } : {}) };
    if (await run(() => createRole(props.groupId, draft))) setName('');
  };
  return (
    <InlineForm label="Create a role" submit="Create role" busy={busy || !name.trim()} error={error} onSubmit={submit}>
      <div className="field-row">
        <label>
          New role name
          <input value={name} maxLength={MAX_ROLE_NAME} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          New role colour
          <input
            type="color"
            className="role-color"
            value={color}
            disabled={!colored}
            onChange={(e) => setColor(e.target.value)}
          />
        </label>
      </div>
      <label className="check">
        <input type="checkbox" checked={colored} onChange={(e) => setColored(e.target.checked)} />
        Colour its members' names
      </label>
    </InlineForm>
  );
}
