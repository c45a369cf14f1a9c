import type { ReactNode } from 'react';
import { ErrorLine } from '../../common/ErrorLine.tsx';

/**
 * The frame of a small create form: its fields, the failure or problem to
 * show, and the submit button (disabled while busy). Submitting calls
 * `onSubmit` instead of loading a page.
 */
export function InlineForm(props: {
  /** The form's accessible name ("Create a bot"). */
  label: string;
  /** The submit button's text. */
  submit: string;
  busy: boolean;
  error: string | null;
  /** Leaves checking the fields to `onSubmit` rather than the browser. */
  noValidate?: boolean;
  onSubmit: () => Promise<void>;
  children: ReactNode;
}) {
  return (
    <form
      className="inline-form"
      aria-label={props.label}
      noValidate={props.noValidate}
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSubmit();
      }}
    >
      {props.children}
      <ErrorLine error={props.error} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={props.busy}>
          {props.submit}
        </button>
      </div>
    </form>
  );
}
