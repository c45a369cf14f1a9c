import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { createRole } from '../../../state/roles.ts';
import { InlineForm } from '../settings/InlineForm.tsx';
import { useAction } from '../../common/useAction.ts';
import { DEFAULT_ROLE_COLOR, MAX_ROLE_NAME } from './RoleEditor.tsx';
import { RoleLookFields } from './RoleLookFields.tsx';

/** A new role: its name and, if wanted, the colour its holders' names take. Permissions are ticked afterwards. */
export function CreateRoleForm(props: { groupId: string }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [colored, setColored] = useState(true);
  const [color, setColor] = useState(DEFAULT_ROLE_COLOR);
  const { busy, error, run } = useAction();
  const submit = async () => {
    const draft = { name: name.trim(), permissions: [], ...(colored ? { color } : {}) };
    if (await run(() => createRole(props.groupId, draft))) setName('');
  };
  return (
    <InlineForm
      label={t('roles.create.label')}
      submit={t('roles.create')}
      busy={busy || !name.trim()}
      error={error}
      onSubmit={submit}
    >
      <RoleLookFields
        kind="new"
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
