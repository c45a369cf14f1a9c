import { useTranslation } from 'react-i18next';
import type { Invite } from '@im/protocol';
import { useState } from 'react';
import { listInvites, revokeInvite } from '../../../state/moderation.ts';
import { useStore } from '../../../state/store.ts';
import { displayName, ensureUsers } from '../../../state/users.ts';
import { formatMoment } from '../../messages/format.ts';
import { useLoaded } from '../../moderation/useLoaded.ts';
import { InviteLink } from '../InviteLink.tsx';
import { CreateInviteForm } from './CreateInviteForm.tsx';
import { LoadedList } from './LoadedList.tsx';
import { ErrorLine } from '../../common/ErrorLine.tsx';
import { useAction } from '../../common/useAction.ts';

/** The group's invites (uses, limit, expiry, creator), revoking them, and making a new one. */
export function InvitesTab(props: { groupId: string }) {
  const { t } = useTranslation();
  const { groupId } = props;
  const [created, setCreated] = useState<Invite | null>(null);
  const invites = useLoaded(groupId, async () => {
    const list = await listInvites(groupId);
    ensureUsers(list.map((i) => i.createdBy));
    return list;
  });
  return (
    <>
      <h3>{t('groups.invites.new')}</h3>
      <CreateInviteForm
        groupId={groupId}
        onCreated={(invite) => {
          setCreated(invite);
          invites.update((list) => [invite, ...list.filter((i) => i.code !== invite.code)]);
        }}
      />
      {created && <InviteLink key={created.code} invite={created} />}
      <h3>{t('groups.invites')}</h3>
      <LoadedList
        loaded={invites}
        label={t('groups.invites')}
        keyOf={(i) => i.code}
        onRemoved={(code) => {
          if (created?.code === code) setCreated(null);
        }}
      >
        {(invite, removed) => <InviteRow groupId={groupId} invite={invite} onRevoked={removed} />}
      </LoadedList>
    </>
  );
}

function InviteRow(props: { groupId: string; invite: Invite; onRevoked: () => void }) {
  const { t } = useTranslation();
  const { invite } = props;
  const creator = useStore((s) => s.users[invite.createdBy]);
  const { busy, error, run } = useAction();
  const expired = Date.parse(invite.expiresAt) <= Date.now();
  const uses = invite.uses ?? 0;
  const revoke = () =>
    run(async () => {
      await revokeInvite(props.groupId, invite.code);
      props.onRevoked();
    });
  return (
    <li className="mod-item" data-testid="invite-row" aria-label={t('groups.invites.row', { code: invite.code })}>
      <p className="mod-line">
        <code>{invite.code}</code>{' '}
        <span className="hint">{t('groups.invites.by', { name: displayName(creator, t('groups.someone')) })}</span>
      </p>
      <p className="mod-line hint">
        {invite.maxUses === null
          ? t('groups.invites.uses', { uses })
          : t('groups.invites.usesOf', { uses, max: invite.maxUses })}{' '}
        ·{' '}
        {expired
          ? t('groups.invites.expired', { when: formatMoment(invite.expiresAt) })
          : t('groups.invites.expires', { when: formatMoment(invite.expiresAt) })}
      </p>
      <ErrorLine error={error} />
      <div className="mod-actions">
        <button type="button" className="danger" disabled={busy} onClick={() => void revoke()}>
          {t('groups.invites.revoke')}
        </button>
      </div>
    </li>
  );
}
