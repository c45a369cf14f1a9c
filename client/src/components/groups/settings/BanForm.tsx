import { useState, type FormEvent } from 'react';

export const MAX_BAN_REASON = 500;

/** The reason for a ban (optional, kept in the ban list and the audit log), asked before banning. */
export function BanForm(props: {
  name: string;
  busy?: boolean;
  onBan: (reason: string) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onBan(reason.trim());
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label={`Ban ${props.name}`}>
      <label>
        Reason <span className="hint">(optional)</span>
        <input value={reason} maxLength={MAX_BAN_REASON} onChange={(e) => setReason(e.target.value)} autoFocus />
      </label>
      <div className="form-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="danger" disabled={props.busy}>
          Ban {props.name}
        </button>
      </div>
    </form>
  );
}
