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
  const { group } = props;
  const roles = useRoles((s) => s.byGroup[group.id]);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    loadRoles(group.id).catch((err: unknown) => setLoadError(describeError(err)));
  }, [group.id]);
  if (!roles) return loadError ? <ErrorLine error={loadError} /> : <p className="hint">Loading roles…</p>;
  const custom = roles.filter((r) => r.id !== group.id);
  const grantable = group.myRole === 'member' ? group.myPermissions : PERMISSIONS;
  return (
    <>
      <CreateRoleForm groupId={group.id} />
      <ul className="mod-list" aria-label="Roles">
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

const countPermissions = (n: number) => (n === 0 ? 'No permissions' : n === 1 ? '1 permission' : `${n} permissions`);

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
  const { groupId, role, everyone, manageable } = props;
  const [editing, setEditing] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <li className="mod-item" aria-label={role.name} data-testid="role-row">
      <div className="mod-line">
        <span className="role-dot" aria-hidden="true" style={role.color ? { background: role.color } : undefined} />
        <strong style={role.color ? { color: role.color } : undefined}>{role.name}</strong>
        <span className="hint">
          {countPermissions(role.permissions.length)}
          {everyone && ' · every member holds it'}
          {!manageable && ' · ranked at or above your own roles'}
        </span>
      </div>
      {manageable && (
        <div className="mod-actions">
          <button
            type="button"
            aria-label={`Edit ${role.name}`}
            aria-expanded={editing}
            onClick={() => setEditing(!editing)}
          >
            Edit
          </button>
          {!everyone && (
            <>
              <button
                type="button"
                aria-label={`Move ${role.name} up`}
                disabled={busy || !props.canMoveUp}
                onClick={() => void run(() => moveRole(groupId, role.id, 'up'))}
              >
                Move up
              </button>
              <button
                type="button"
                aria-label={`Move ${role.name} down`}
                disabled={busy || !props.canMoveDown}
                onClick={() => void run(() => moveRole(groupId, role.id, 'down'))}
              >
                Move down
              </button>
              <button
                type="button"
                className="danger"
                aria-label={`Delete ${role.name}`}
                disabled={busy}
                onClick={() =>
                  whenConfirmed({ message: 'shell.confirm.deleteRole', values: { name: role.name } }, () =>
                    run(() => deleteRole(groupId, role.id)),
                  )
                }
              >
                Delete
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
