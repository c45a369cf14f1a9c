import { useId, type ReactNode } from 'react';
import { CopyField } from '../../../common/CopyButton.tsx';

/**
 * Something just made that the server keeps no readable copy of (a token, a
 * secret, a hook's address): this is the only time it can be seen. Done hides it.
 */
export function ShownOnceBox(props: { label: string; ifLost: string; onDone: () => void; children: ReactNode }) {
  const warning = useId();
  return (
    <div className="shown-once" role="group" aria-label={`${props.label} (shown once)`} aria-describedby={warning}>
      {props.children}
      <p className="warning" id={warning}>
        Copy it now: it is shown only this once. If it is lost, {props.ifLost}.
      </p>
      <div className="form-actions">
        <button type="button" onClick={props.onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/** A token or secret just made, with its copy button. */
export function ShownOnce(props: { label: string; value: string; testId: string; onDone: () => void }) {
  return (
    <ShownOnceBox label={props.label} ifLost="make a new one (the old one then stops working)" onDone={props.onDone}>
      <CopyField label={props.label} value={props.value} testId={props.testId} />
    </ShownOnceBox>
  );
}
