import type { ReactNode } from 'react';
import { MAX_NAME } from './validation.ts';

/** A bot's or webhook's name, at most MAX_NAME characters. */
export function NameField(props: {
  label: ReactNode;
  value: string;
  /** Whether the form found a problem (absent where the name is optional). */
  invalid?: boolean;
  onChange: (name: string) => void;
}) {
  return (
    <label>
      {props.label}
      <input
        value={props.value}
        maxLength={MAX_NAME}
        aria-invalid={props.invalid}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}
