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
import { useTranslation } from 'react-i18next';
import { SettingsSections, type SettingsSection } from './SettingsSections.tsx';
import './settings.css';

/**
 * My settings, as sections with a navigation: Profile, Notifications,
 * Language, Account, Sessions, Data. An Appearance section (the theme) goes
 * between Notifications and Language; deleting my account goes at the end
 * of Account.
 */
export function SettingsDialog(props: { onClose: () => void }) {
  const { t } = useTranslation();
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
      setMessage(t('shell.settings.saved'));
    } catch (err) {
      setMessage(describeError(err));
    }
  };
  const sections: SettingsSection[] = [
    {
      id: 'profile',
      label: t('shell.settings.profile'),
      content: (
        <>
          <form className="form" onSubmit={(e) => void save(e)}>
            <p>{t('shell.settings.signedInAs', { username: me.username })}</p>
            <StorageLine />
            <label>
              {t('shell.settings.displayName')}
              <input value={nickname} maxLength={64} onChange={(e) => setNickname(e.target.value)} required />
            </label>
            <div className="form-actions">
              <button type="submit" className="primary" disabled={!nickname.trim() || nickname.trim() === me.nickname}>
                {t('common.save')}
              </button>
            </div>
          </form>
          <AvatarSection />
        </>
      ),
    },
    {
      id: 'notifications',
      label: t('shell.settings.notifications'),
      content: (
        <>
          <div className="form">
            {push === 'unsupported' && <p className="hint">{t('shell.settings.pushUnsupported')}</p>}
            {push === 'denied' && <p className="hint">{t('shell.settings.pushDenied')}</p>}
            {push === 'default' && (
              <button
                type="button"
                onClick={() => void enablePush().then((text) => (setPushMessage(text), pushState().then(setPush)))}
              >
                {t('shell.settings.pushOn')}
              </button>
            )}
            {push === 'enabled' && (
              <button type="button" onClick={() => void disablePush().then(() => pushState().then(setPush))}>
                {t('shell.settings.pushOff')}
              </button>
            )}
            <StatusLine message={pushMessage} />
            <PushSubscriptionsSection refresh={push} onThisBrowserRemoved={() => void pushState().then(setPush)} />
          </div>
          <DndScheduleSection />
          <ReceiptsSetting account={account} />
        </>
      ),
    },
    { id: 'appearance', label: t('shell.settings.appearance'), content: <AppearanceSection /> },
    { id: 'language', label: t('settings.language'), content: <LanguageSection /> },
    {
      id: 'account',
      label: t('shell.settings.account'),
      content: (
        <>
          <EmailSection account={account} />
          <SsoSection account={account} />
          {account?.hasPassword !== false && <PasswordSection />}
          <BlockedUsersSection />
          <div className="form-actions">
            <button type="button" className="danger" onClick={() => void logout()}>
              {t('shell.settings.logOut')}
            </button>
          </div>
          {account && <DeleteAccountSection username={me.username} hasPassword={account.hasPassword} />}
        </>
      ),
    },
    { id: 'sessions', label: t('shell.settings.sessions'), content: <SessionsSection /> },
    {
      id: 'data',
      label: t('shell.settings.data'),
      content: (
        <>
          <FeedsSection />
          <ExportSection
            title={t('shell.settings.exportTitle')}
            hint={t('shell.settings.exportHint')}
            button={t('shell.settings.exportButton')}
            start={() => api.call('import.exportMine')}
          />
        </>
      ),
    },
  ];
  return (
    <Dialog title={t('shell.settings.title')} onClose={props.onClose} size="medium">
      <SettingsSections sections={sections} />
      <StatusLine message={message} />
    </Dialog>
  );
}
