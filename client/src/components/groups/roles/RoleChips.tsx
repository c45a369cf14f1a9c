import { useTranslation } from 'react-i18next';
import './roles.css';
import type { Role } from '@im/protocol';

/** A member's roles as small coloured chips (nothing when they hold none). */
export function RoleChips(props: { roles: Role[] }) {
  const { t } = useTranslation();
  if (props.roles.length === 0) return null;
  return (
    <ul className="role-chips" aria-label={t('groups.members.roles')}>
      {props.roles.map((role) => (
        <li key={role.id} className="role-chip" data-testid="role-chip">
          <span className="role-dot" aria-hidden="true" style={role.color ? { background: role.color } : undefined} />
          {role.name}
        </li>
      ))}
    </ul>
  );
}
