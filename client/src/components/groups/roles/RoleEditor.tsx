import { useTranslation } from 'react-i18next';
import type { Permission, Role } from '@im/protocol';
import { useState } from 'react';
import { updateRole, type RolePatch } from '../../../state/roles.ts';
import { InlineForm } from '../settings/InlineForm.tsx';
import { useAction } from '../../common/useAction.ts';
import { PermissionChecks } from './PermissionChecks.tsx';
import { RoleLookFields } from './RoleLookFields.tsx';

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
  const { t } = useTranslation();
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
      label={t('roles.edit.label', { name: role.name })}
      submit={t('roles.edit.save')}
      busy={busy || !name.trim()}
      error={error}
      onSubmit={submit}
    >
      {!props.everyone && (
        <RoleLookFields
          kind="edit"
          name={name}
          onName={setName}
          color={color}
          onColor={setColor}
          colored={colored}
          onColored={setColored}
          maxName={MAX_ROLE_NAME}
          required
        />
      )}
      <PermissionChecks value={permissions} grantable={props.grantable} onChange={setPermissions} />
    </InlineForm>
  );
}
