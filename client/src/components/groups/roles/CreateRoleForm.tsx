import { useState } from 'react';
import { createRole } from '../../../state/roles.ts';
import { InlineForm } from '../settings/InlineForm.tsx';
import { useAction } from '../../common/useAction.ts';
import { DEFAULT_ROLE_COLOR, MAX_ROLE_NAME } from './RoleEditor.tsx';
import { RoleLookFields } from './RoleLookFields.tsx';

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
      <RoleLookFields
        label="New role"
        name={name}
        onName={setName}
        color={color}
        onColor={setColor}
        colored={colored}
        onColored={setColored}
        maxName={MAX_ROLE_NAME}
      />
    </InlineForm>
  );
}
