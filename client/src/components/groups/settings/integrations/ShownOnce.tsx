import { useId } from 'react';
import { CopyField } from '../../../common/CopyButton.tsx';

/**
 * A token or secret just made, with its copy button: the server keeps no
 * readable copy, so this is the only time it can be seen. Done hides it.
 */
export function ShownOnce(props: { label: string; value: string; testId: string; onDone: () => void }) {
  const warning = useId();
  return (
    <div className="shown-once" role="group" aria-label={`${props.label} (shown once)`} aria-describedby={warning}>
      <CopyField label={props.label} value={props.value} testId={props.testId} />
      <p className="warning" id={warning}>
        Copy it now: it is shown only this once. If it is lost, make a new one (the old one then stops working).
      </p>
      <div className="form-actions">
        <button type="button" onClick={props.onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
