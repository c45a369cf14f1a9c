/** An outcome said in a sentence (saved, changed), announced politely; nothing when there is none. */
export function StatusLine(props: { message: string | null | undefined }) {
  if (!props.message) return null;
  return (
    <p className="hint" role="status">
      {props.message}
    </p>
  );
}
