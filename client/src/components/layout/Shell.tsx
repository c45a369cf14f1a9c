import { useTranslation } from 'react-i18next';
import type { PublicUser } from '@im/protocol';
import { hasPermission } from '../../state/permissions.ts';
import { useEffect, useMemo, useState } from 'react';
import { loadMembers } from '../../state/groups.ts';
import { navigate } from '../../state/navigation.ts';
import { ExploreButton } from '../explore/ExploreButton.tsx';
import { useStore } from '../../state/store.ts';
import { displayName } from '../../state/users.ts';
import { AdminConsole } from '../admin/AdminConsole.tsx';
import { CreateGroupDialog, JoinGroupDialog } from '../groups/dialogs.tsx';
import { MemberPanel } from '../groups/MemberPanel.tsx';
import { ConverseView } from '../messages/ConverseView.tsx';
import { ExploreView } from '../explore/ExploreView.tsx';
import { JoinPrompt } from '../explore/JoinPrompt.tsx';
import { GroupRail } from './GroupRail.tsx';
import { SettingsDialog } from './SettingsDialog.tsx';
import { StatusMenu } from '../status/StatusMenu.tsx';
import { SavedEntry } from './SavedEntry.tsx';
import { DmSidebar, GroupSidebar } from './Sidebar.tsx';
import { Icon } from '../common/Icon.tsx';
import { PinsButton } from '../threads/PinsButton.tsx';
import { ThreadPane } from '../threads/ThreadPane.tsx';
import { ThreadsButton } from '../threads/ThreadsButton.tsx';
import { DocumentTitle } from '../catch-up/DocumentTitle.tsx';
import { CallBar } from '../calls/CallBar.tsx';
import { DmCallButton, DmCallStage } from '../calls/DmCall.tsx';
import { IncomingCall } from '../calls/IncomingCall.tsx';
import { VoicePanelView } from '../calls/VoicePanelView.tsx';
import { useGroupUserGroups } from '../groups/useGroupUserGroups.ts';
import { userGroupMentions } from '../messages/mentions.ts';
import { ScheduledButton, ScheduledDialogHost } from '../scheduled/ScheduledDialog.tsx';
import { SearchButton, SearchLauncher } from '../search/SearchLauncher.tsx';
import { SwitcherButton, SwitcherLauncher } from '../switcher/SwitcherLauncher.tsx';
import { ConverseNotificationsMenu } from '../attention/ConverseNotificationsMenu.tsx';
import { InboxBell } from '../attention/InboxBell.tsx';
import { PermalinkOpener } from '../permalinks/PermalinkOpener.tsx';
import { SkipLinks } from '../keyboard/SkipLinks.tsx';
import { ConfirmHost } from '../common/ConfirmDialog.tsx';

type Dialogs = null | 'create' | 'join' | 'settings' | 'admin';

/** The signed-in app: rail, sidebar, the open converse and the member list. */
export function Shell() {
  const { t } = useTranslation();
  const route = useStore((s) => s.route);
  const groups = useStore((s) => s.groups);
  const dms = useStore((s) => s.dms);
  const me = useStore((s) => s.me)!;
  const serverAdmin = useStore((s) => s.serverAdmin);
  const users = useStore((s) => s.users);
  const memberLists = useStore((s) => s.members);
  const groupsLoaded = useStore((s) => s.groupsLoaded);
  const [dialog, setDialog] = useState<Dialogs>(route.name === 'invite' ? 'join' : null);
  const [navOpen, setNavOpen] = useState(false);
  const [membersOpen, setMembersOpen] = useState(() => window.matchMedia?.('(min-width: 1100px)').matches ?? true);

  // A converse named by id alone (a notification) becomes its panel or DM once the lists are in.
  useEffect(() => {
    // A permalink is opened (at its message) by PermalinkOpener.
    if (route.name !== 'converse' || route.messageId) return;
    if (dms[route.converseId]) navigate({ name: 'dm', converseId: route.converseId }, { replace: true });
    for (const group of Object.values(groups)) {
      if (group.panels.some((p) => p.converseId === route.converseId)) {
        navigate({ name: 'group', groupId: group.id, converseId: route.converseId }, { replace: true });
      }
    }
  }, [route, groups, dms]);

  useEffect(() => {
    if (route.name === 'invite') setDialog('join');
  }, [route]);

  // A group opened without a panel shows its first one.
  const group = route.name === 'group' ? groups[route.groupId] : undefined;
  const groupConverse =
    route.name === 'group' && group
      ? (group.panels.find((p) => p.converseId === route.converseId) ?? group.panels[0])
      : undefined;
  const dm = route.name === 'dm' ? dms[route.converseId] : undefined;
  const dmOther = dm ? users[dm.memberIds.find((id) => id !== me.id) ?? me.id] : undefined;

  const userGroups = useGroupUserGroups(group?.id);
  const mentionable = useMemo<PublicUser[]>(() => {
    if (group) return [...(memberLists[group.id]?.items ?? []).map((m) => m.user), ...userGroupMentions(userGroups)];
    if (dm) return dm.memberIds.map((id) => users[id]).filter((u): u is PublicUser => u !== undefined);
    return [];
  }, [group, dm, memberLists, users, userGroups]);

  // The open group's members: the member list shows them and @mention offers them (list shown or not).
  const groupId = group?.id;
  const membersLoaded = groupId !== undefined && memberLists[groupId] !== undefined;
  useEffect(() => {
    if (groupId !== undefined && !membersLoaded) void loadMembers(groupId);
  }, [groupId, membersLoaded]);

  const converseId = groupConverse?.converseId ?? dm?.id;
  const voicePanel = groupConverse?.type === 'voice' ? groupConverse : undefined;
  const title = groupConverse
    ? voicePanel
      ? groupConverse.name
      : `#${groupConverse.name}`
    : dm
      ? displayName(dmOther, t('shell.directMessage'))
      : '';

  const exploring = route.name === 'explore';
  // Any navigation (a panel, a DM, Explore) shows what it opened, on a phone too.
  useEffect(() => setNavOpen(false), [converseId, route]);

  return (
    <div className="shell-frame">
      {converseId && !voicePanel && <SkipLinks />}
      <div className={`shell${navOpen || (!converseId && !exploring) ? ' nav-open' : ''}`}>
        <div className="nav">
          <GroupRail onCreate={() => setDialog('create')} onJoin={() => setDialog('join')} />
          <div className="sidebar-column">
            {group ? (
              <GroupSidebar group={group} activeConverseId={converseId} />
            ) : (
              <DmSidebar activeConverseId={dm?.id} />
            )}
            <SavedEntry />
            <div className="user-bar">
              <StatusMenu />
              {serverAdmin && (
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('shell.adminConsole')}
                  title={t('shell.adminConsole')}
                  onClick={() => setDialog('admin')}
                >
                  <Icon name="shield" />
                </button>
              )}
              <InboxBell />
              <ScheduledButton />
              <button
                type="button"
                className="icon-button"
                aria-label={t('shell.settings.title')}
                onClick={() => setDialog('settings')}
              >
                <Icon name="gear" />
              </button>
            </div>
          </div>
        </div>
        <main className="main">
          {exploring ? (
            <ExploreView onBack={() => setNavOpen(true)} />
          ) : converseId ? (
            <>
              <header className="converse-head">
                <button
                  type="button"
                  className="icon-button back"
                  aria-label={t('shell.back')}
                  onClick={() => setNavOpen(true)}
                >
                  <Icon name="back" size={24} />
                </button>
                {voicePanel && (
                  <span className="voice-mark" title={t('shell.voicePanel')}>
                    <Icon name="speaker" />
                  </span>
                )}
                <div className="converse-heading">
                  <h1 data-testid="converse-title">{title}</h1>
                  {groupConverse?.topic && (
                    <p className="converse-topic" data-testid="converse-topic" title={groupConverse.topic}>
                      {groupConverse.topic}
                    </p>
                  )}
                </div>
                {dm && <DmCallButton converseId={dm.id} name={title} />}
                <SwitcherButton />
                <SearchButton />
                <ThreadsButton />
                {!voicePanel && <PinsButton converseId={converseId} />}
                <ConverseNotificationsMenu converseId={converseId} />
                {group && (
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={t('shell.members')}
                    aria-pressed={membersOpen}
                    onClick={() => setMembersOpen(!membersOpen)}
                  >
                    <Icon name="users" />
                  </button>
                )}
              </header>
              {dm && <DmCallStage converseId={dm.id} />}
              <div className="converse-body">
                {voicePanel && group ? (
                  <VoicePanelView key={voicePanel.converseId} groupId={group.id} panel={voicePanel} />
                ) : (
                  <ConverseView
                    key={converseId}
                    converseId={converseId}
                    groupId={group?.id}
                    title={title}
                    members={mentionable}
                    canModerate={group !== undefined && hasPermission(group, 'manageMessages')}
                    canPin={group === undefined || hasPermission(group, 'pinMessages')}
                    posting={
                      group
                        ? {
                            myRole: group.myRole,
                            postingRole: groupConverse?.postingRole,
                            myMutedUntil: group.myMutedUntil,
                          }
                        : undefined
                    }
                  />
                )}
                {!voicePanel && (
                  <ThreadPane
                    converseId={converseId}
                    members={mentionable}
                    canModerate={group !== undefined && hasPermission(group, 'manageMessages')}
                  />
                )}
                {group && membersOpen && <MemberPanel group={group} />}
              </div>
            </>
          ) : route.name === 'group' && !group ? (
            groupsLoaded ? (
              <JoinPrompt groupId={route.groupId} converseId={route.converseId} />
            ) : (
              <p className="welcome hint">{t('common.loading')}</p>
            )
          ) : (
            <div className="welcome">
              <h1>{t('shell.hello', { name: displayName(me) })}</h1>
              <p>{t('shell.welcomeHint')}</p>
              <div className="form-actions">
                <button type="button" className="primary" onClick={() => setDialog('create')}>
                  {t('shell.createGroup')}
                </button>
                <button type="button" onClick={() => setDialog('join')}>
                  {t('shell.joinWithInvite')}
                </button>
                <ExploreButton />
              </div>
            </div>
          )}
        </main>
        {dialog === 'create' && <CreateGroupDialog onClose={() => setDialog(null)} />}
        {dialog === 'join' && (
          <JoinGroupDialog
            initialCode={route.name === 'invite' ? route.code : undefined}
            onClose={() => {
              setDialog(null);
              if (useStore.getState().route.name === 'invite') navigate({ name: 'home' }, { replace: true });
            }}
          />
        )}
        <SearchLauncher />
        <SwitcherLauncher />
        <ScheduledDialogHost />
        <DocumentTitle />
        <PermalinkOpener />
        {dialog === 'settings' && <SettingsDialog onClose={() => setDialog(null)} />}
        {dialog === 'admin' && serverAdmin && <AdminConsole onClose={() => setDialog(null)} />}
      </div>
      <CallBar />
      <IncomingCall />
      <ConfirmHost />
    </div>
  );
}
