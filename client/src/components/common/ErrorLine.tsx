/** A failure said in a sentence, announced to screen readers; nothing when there is none. */
export function ErrorLine(props: { error: string | null | undefined }) {
  if (!props.error) return null;
  return (
    <p className="error" role="alert">
      {props.error}
    </p>
  );
}
