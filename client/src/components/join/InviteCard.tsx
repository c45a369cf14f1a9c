import './join.css';
import type { InvitePreview } from '@im/protocol';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { GroupIcon } from '../groups/GroupIcon.tsx';

/**
 * The group an invite link leads to, before joining: its icon, name,
 * description and member count, and who invited. `preview` undefined: still
 * asked; null: the invite cannot be used any more.
 */
export function InviteCard(props: { preview: InvitePreview | null | undefined }) {
  const { t } = useTranslation();
  // The icon is read through a signed URL, which takes a session: signed out, the initials show.
  const signedIn = useStore((s) => s.me !== null);
  const { preview } = props;
  if (preview === undefined) return <p className="hint invite-card">{t('common.loading')}</p>;
  if (preview === null)
    return (
      <p className="invite-card invite-gone" role="alert" data-testid="invite-gone">
        {t('join.gone')}
      </p>
    );
  const { group, inviter } = preview;
  return (
    <section className="invite-card" aria-labelledby="invite-group-name" data-testid="invite-card">
      <span className="group-icon large" aria-hidden="true">
        <GroupIcon group={{ name: group.name, icon: signedIn ? group.icon : undefined }} />
      </span>
      <div className="invite-card-text">
        {inviter && <p className="hint">{t('join.invitedBy', { name: displayName(inviter) })}</p>}
        <h2 id="invite-group-name" data-testid="invite-group-name">
          {group.name}
        </h2>
        {group.description && <p className="invite-description">{group.description}</p>}
        <p className="hint" data-testid="invite-member-count">
          {t('join.memberCount', { count: group.memberCount })}
        </p>
      </div>
    </section>
  );
}
