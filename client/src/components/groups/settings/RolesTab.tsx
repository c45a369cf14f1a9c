import { useTranslation } from 'react-i18next';
import '../roles/roles.css';
import { PERMISSIONS, type Group, type Permission, type Role } from '@im/protocol';
import { useEffect, useState } from 'react';
import { describeError } from '../../../api/errors.ts';
import { mayManageRole } from '../../../state/permissions.ts';
import { deleteRole, loadRoles, moveRole, useRoles } from '../../../state/roles.ts';
import { ErrorLine } from '../../common/ErrorLine.tsx';
import { useAction } from '../../common/useAction.ts';
import { CreateRoleForm } from '../roles/CreateRoleForm.tsx';
import { RoleEditor } from '../roles/RoleEditor.tsx';
import { whenConfirmed } from '../../common/confirm.ts';

/**
 * A group's roles, highest first: what each lets its holders do, the colour
 * of their names, and their order (a higher role's colour wins). `@everyone`,
 * held by every member, comes last and has only permissions. A member who
 * manages roles (not owner or admin) changes only roles ranked below their
 * own, and hands out only permissions they hold.
 */
export function RolesTab(props: { group: Group }) {
  const { t } = useTranslation();
  const { group } = props;
  const roles = useRoles((s) => s.byGroup[group.id]);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    loadRoles(group.id).catch((err: unknown) => setLoadError(describeError(err)));
  }, [group.id]);
  if (!roles) return loadError ? <ErrorLine error={loadError} /> : <p className="hint">{t('groups.roles.loading')}</p>;
  const custom = roles.filter((r) => r.id !== group.id);
  const grantable = group.myRole === 'member' ? group.myPermissions : PERMISSIONS;
  return (
    <>
      <CreateRoleForm groupId={group.id} />
      <ul className="mod-list" aria-label={t('groups.members.roles')}>
        {roles.map((role) => {
          const rank = custom.indexOf(role);
          const above = rank > 0 ? custom[rank - 1] : undefined;
          return (
            <RoleRow
              key={role.id}
              groupId={group.id}
              role={role}
              everyone={rank < 0}
              manageable={mayManageRole(group, role, roles)}
              canMoveUp={above !== undefined && mayManageRole(group, above, roles)}
              canMoveDown={rank >= 0 && rank < custom.length - 1}
              grantable={grantable}
            />
          );
        })}
      </ul>
    </>
  );
}

function RoleRow(props: {
  groupId: string;
  role: Role;
  everyone: boolean;
  /** Ranked below me (or I am owner or admin): I may edit, move and delete it. */
  manageable: boolean;
  canMoveUp: boolean;
  canMoveDown: boolean;
  grantable: readonly Permission[];
}) {
  const { t } = useTranslation();
  const { groupId, role, everyone, manageable } = props;
  const [editing, setEditing] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <li className="mod-item" aria-label={role.name} data-testid="role-row">
      <div className="mod-line">
        <span className="role-dot" aria-hidden="true" style={role.color ? { background: role.color } : undefined} />
        <strong style={role.color ? { color: role.color } : undefined}>{role.name}</strong>
        <span className="hint">
          {t('groups.roles.permissions', { count: role.permissions.length })}
          {everyone && ` · ${t('groups.roles.everyone')}`}
          {!manageable && ` · ${t('groups.roles.ranked')}`}
        </span>
      </div>
      {manageable && (
        <div className="mod-actions">
          <button
            type="button"
            aria-label={t('groups.roles.edit.label', { name: role.name })}
            aria-expanded={editing}
            onClick={() => setEditing(!editing)}
          >
            {t('scheduled.row.edit')}
          </button>
          {!everyone && (
            <>
              <button
                type="button"
                aria-label={t('groups.roles.up.label', { name: role.name })}
                disabled={busy || !props.canMoveUp}
                onClick={() => void run(() => moveRole(groupId, role.id, 'up'))}
              >
                {t('groups.roles.up')}
              </button>
              <button
                type="button"
                aria-label={t('groups.roles.down.label', { name: role.name })}
                disabled={busy || !props.canMoveDown}
                onClick={() => void run(() => moveRole(groupId, role.id, 'down'))}
              >
                {t('groups.roles.down')}
              </button>
              <button
                type="button"
                className="danger"
                aria-label={t('groups.roles.delete.label', { name: role.name })}
                disabled={busy}
                onClick={() =>
                  whenConfirmed({ message: 'shell.confirm.deleteRole', values: { name: role.name } }, () =>
                    run(() => deleteRole(groupId, role.id)),
                  )
                }
              >
                {t('common.delete')}
              </button>
            </>
          )}
        </div>
      )}
      <ErrorLine error={error} />
      {editing && manageable && (
        <RoleEditor
          groupId={groupId}
          role={role}
          everyone={everyone}
          grantable={props.grantable}
          onDone={() => setEditing(false)}
        />
      )}
    </li>
  );
}
