/** What a role looks like as it is made or edited: a name and, if wanted, the colour its holders' names take. */
export function RoleLookFields(props: {
  /** Starts each control's label: "New role" (name, colour) or "Role". */
  label: string;
  name: string;
  onName: (name: string) => void;
  color: string;
  onColor: (color: string) => void;
  colored: boolean;
  onColored: (colored: boolean) => void;
  maxName: number;
  required?: boolean;
}) {
  return (
    <>
      <div className="field-row">
        <label>
          {props.label} name
          <input
            value={props.name}
            maxLength={props.maxName}
            required={props.required}
            onChange={(e) => props.onName(e.target.value)}
          />
        </label>
        <label>
          {props.label} colour
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
        Colour its members' names
      </label>
    </>
  );
}
