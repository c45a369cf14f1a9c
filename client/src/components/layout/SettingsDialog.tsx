import type { Me } from '@im/protocol';
import { useEffect, useState, type FormEvent } from 'react';
import { describeError } from '../../api/errors.ts';
import { disablePush, enablePush, pushState, type PushState } from '../../push/notifications.ts';
import { logout } from '../../state/session.ts';
import { useStore } from '../../state/store.ts';
import { applyUserUpdated } from '../../state/users.ts';
import { Dialog } from '../common/Dialog.tsx';
import { ExportSection } from '../exports/ExportSection.tsx';
import { AvatarSection } from '../people/AvatarSection.tsx';
import { EmailSection } from './EmailSection.tsx';
import { DndScheduleSection } from '../status/DndScheduleSection.tsx';
import { FeedsSection } from './FeedsSection.tsx';
import { AppearanceSection } from './AppearanceSection.tsx';
import { LanguageSection } from './LanguageSection.tsx';
import { PasswordSection } from './PasswordSection.tsx';
import { PushSubscriptionsSection } from './PushSubscriptionsSection.tsx';
import { SessionsSection } from './SessionsSection.tsx';
import { BlockedUsersSection } from '../safety/BlockedUsersSection.tsx';
import { DeleteAccountSection } from './DeleteAccountSection.tsx';
import { SsoSection } from './SsoSection.tsx';
import { ReceiptsSetting } from '../receipts/ReceiptsSetting.tsx';
import { StorageLine } from './StorageLine.tsx';
import { StatusLine } from '../common/StatusLine.tsx';
import { api } from '../../api/api.ts';

/** My profile, storage, notifications, e-mail, personal feeds, single sign-on, password, sessions and logging out. */
export function SettingsDialog(props: { onClose: () => void }) {
  const me = useStore((s) => s.me)!;
  const [nickname, setNickname] = useState(me.nickname);
  const [message, setMessage] = useState<string | null>(null);
  const [push, setPush] = useState<PushState>('unsupported');
  const [pushMessage, setPushMessage] = useState<string | null>(null);
  // How I sign in (password, single sign-on): my full profile says.
  const [account, setAccount] = useState<Me | null>(null);
  useEffect(() => {
    void pushState().then(setPush);
    void api.call('user.me').then(setAccount, () => undefined);
  }, []);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const user = await api.call('user.updateMe', { nickname: nickname.trim() });
      applyUserUpdated(user);
      setMessage('Saved.');
    } catch (err) {
      setMessage(describeError(err));
    }
  };
  return (
    <Dialog title="Settings" onClose={props.onClose}>
      <form className="form" onSubmit={(e) => void save(e)}>
        <p>
          Signed in as <strong>@{me.username}</strong>
        </p>
        <StorageLine />
        <label>
          Display name
          <input value={nickname} maxLength={64} onChange={(e) => setNickname(e.target.value)} required />
        </label>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={!nickname.trim() || nickname.trim() === me.nickname}>
            Save
          </button>
        </div>
      </form>
      <AvatarSection />
      <LanguageSection />
      <AppearanceSection />
      <div className="form">
        <h3>Notifications</h3>
        {push === 'unsupported' && <p className="hint">This browser cannot show notifications.</p>}
        {push === 'denied' && <p className="hint">Notifications are blocked in the browser's site settings.</p>}
        {push === 'default' && (
          <button
            type="button"
            onClick={() => void enablePush().then((text) => (setPushMessage(text), pushState().then(setPush)))}
          >
            Turn on notifications
          </button>
        )}
        {push === 'enabled' && (
          <button type="button" onClick={() => void disablePush().then(() => pushState().then(setPush))}>
            Turn off notifications
          </button>
        )}
        <StatusLine message={pushMessage} />
        <PushSubscriptionsSection refresh={push} onThisBrowserRemoved={() => void pushState().then(setPush)} />
      </div>
      <DndScheduleSection />
      <EmailSection account={account} />
      <ReceiptsSetting account={account} />
      <FeedsSection />
      <SsoSection account={account} />
      {account?.hasPassword !== false && <PasswordSection />}
      <SessionsSection />
      <BlockedUsersSection />
      <ExportSection
        title="Your data"
        hint="A zip of your profile, your direct messages, your own messages in your groups and the files you uploaded."
        button="Export my data"
        start={() => api.call('import.exportMine')}
      />
      {account && <DeleteAccountSection username={me.username} hasPassword={account.hasPassword} />}
      <StatusLine message={message} />
      <div className="form-actions">
        <button type="button" className="danger" onClick={() => void logout()}>
          Log out
        </button>
      </div>
    </Dialog>
  );
}
