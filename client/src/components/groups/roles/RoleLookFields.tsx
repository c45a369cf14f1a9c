import { useTranslation } from 'react-i18next';
/** What a role looks like as it is made or edited: a name and, if wanted, the colour its holders' names take. */
export function RoleLookFields(props: {
  /** Whether the role is being made ("New role name") or edited ("Role name"). */
  kind: 'new' | 'edit';
  name: string;
  onName: (name: string) => void;
  color: string;
  onColor: (color: string) => void;
  colored: boolean;
  onColored: (colored: boolean) => void;
  maxName: number;
  required?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="field-row">
        <label>
          {t('roles.look.name', { kind: props.kind })}
          <input
            value={props.name}
            maxLength={props.maxName}
            required={props.required}
            onChange={(e) => props.onName(e.target.value)}
          />
        </label>
        <label>
          {t('roles.look.colour', { kind: props.kind })}
          <input
            type="color"
            className="role-color"
            value={props.color}
            disabled={!props.colored}
            onChange={(e) => props.onColor(e.target.value)}
          />
        </label>
      </div>
      <label className="check">
        <input type="checkbox" checked={props.colored} onChange={(e) => props.onColored(e.target.checked)} />
        {t('roles.look.colourNames')}
      </label>
    </>
  );
}
