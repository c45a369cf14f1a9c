/**
 * Shown on a webhook or command whose maker is no longer an admin of the
 * group: it does nothing until it gets a new secret, which only the admin
 * renewing it then knows.
 */
export function SuspendedNote(props: { suspended: boolean | undefined }) {
  if (!props.suspended) return null;
  return (
    <p className="mod-line hint" data-testid="suspended-note">
      <strong>Suspended</strong>: whoever set this up is no longer an admin of this group. It does nothing until it gets
      a new secret.
    </p>
  );
}
