import { Trans } from 'react-i18next';

/**
 * Shown on a webhook or command whose maker is no longer an admin of the
 * group: it does nothing until it gets a new secret, which only the admin
 * renewing it then knows.
 */
export function SuspendedNote(props: { suspended: boolean | undefined }) {
  if (!props.suspended) return null;
  return (
    <p className="mod-line hint" data-testid="suspended-note">
      <Trans i18nKey="integrations.suspended" components={{ strong: <strong /> }} />
    </p>
  );
}
