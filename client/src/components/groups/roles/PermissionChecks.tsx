import { PERMISSIONS, type Permission } from '@im/protocol';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { permissionLabel, permissionText } from '../../../state/permissions.ts';

/**
 * Every permission as a checkbox, its one-line description read with it.
 * Those outside `grantable` (what I hold myself) cannot be ticked.
 */
export function PermissionChecks(props: {
  value: Permission[];
  grantable: readonly Permission[];
  onChange: (value: Permission[]) => void;
}) {
  const { t } = useTranslation();
  const base = useId();
  return (
    <fieldset className="permission-checks">
      <legend>{t('permissions')}</legend>
      {PERMISSIONS.map((permission) => (
        <label key={permission} className="check">
          <input
            type="checkbox"
            checked={props.value.includes(permission)}
            disabled={!props.grantable.includes(permission) && !props.value.includes(permission)}
            aria-describedby={`${base}-${permission}`}
            onChange={(e) =>
              props.onChange(
                e.target.checked
                  ? PERMISSIONS.filter((p) => p === permission || props.value.includes(p))
                  : props.value.filter((p) => p !== permission),
              )
            }
          />
          <span>
            {permissionLabel(permission)}
            <span className="hint permission-text" id={`${base}-${permission}`}>
              {permissionText(permission)}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
