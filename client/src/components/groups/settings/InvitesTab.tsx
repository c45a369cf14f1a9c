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
  const { groupId } = props;
  const [created, setCreated] = useState<Invite | null>(null);
  const invites = useLoaded(groupId, async () => {
    const list = await listInvites(groupId);
    ensureUsers(list.map((i) => i.createdBy));
    return list;
  });
  return (
    <>
      <h3>New invite</h3>
      <CreateInviteForm
        groupId={groupId}
        onCreated={(invite) => {
          setCreated(invite);
          invites.update((list) => [invite, ...list.filter((i) => i.code !== invite.code)]);
        }}
      />
      {created && <InviteLink key={created.code} invite={created} />}
      <h3>Invites</h3>
      <LoadedList
        loaded={invites}
        label="Invites"
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
    <li className="mod-item" data-testid="invite-row" aria-label={`Invite ${invite.code}`}>
      <p className="mod-line">
        <code>{invite.code}</code> <span className="hint">by {displayName(creator, 'someone')}</span>
      </p>
      <p className="mod-line hint">
        {invite.maxUses === null ? `${uses} uses, no limit` : `${uses} of ${invite.maxUses} uses`} ·{' '}
        {expired ? 'expired' : 'expires'} {formatMoment(invite.expiresAt)}
      </p>
      <ErrorLine error={error} />
      <div className="mod-actions">
        <button type="button" className="danger" disabled={busy} onClick={() => void revoke()}>
          Revoke
        </button>
      </div>
    </li>
  );
}
