import { useTranslation } from 'react-i18next';
import type { Group, Panel } from '@im/protocol';
import { useEffect, useState } from 'react';
import { joinCall, loadCallState, useCalls } from '../../state/calls.ts';
import { CallRoster } from '../calls/CallRoster.tsx';
import { deleteGroup, deletePanel, leaveGroup } from '../../state/groups.ts';
import { heardBadge, isMuted, useAttention } from '../../state/attention.ts';
import { navigate } from '../../state/navigation.ts';
import { MarkReadButton } from '../attention/MarkReadButton.tsx';
import { useStore } from '../../state/store.ts';
import { dmBadge } from '../../state/unread.ts';
import { displayName } from '../../state/users.ts';
import { Avatar } from '../common/Avatar.tsx';
import { Badge } from '../common/Badge.tsx';
import { InviteDialog, PanelDialog, RenameGroupDialog } from '../groups/dialogs.tsx';
import { GroupIcon } from '../groups/GroupIcon.tsx';
import { PanelSettingsDialog } from '../groups/PanelSettingsDialog.tsx';
import { canOpenGroupSettings, GroupSettingsDialog } from '../groups/settings/GroupSettingsDialog.tsx';
import { hasPermission } from '../../state/permissions.ts';
import { Icon } from '../common/Icon.tsx';
import { useMenu } from '../common/useMenu.ts';
import { NewMessageDialog } from '../people/NewMessageDialog.tsx';
import { whenConfirmed } from '../common/confirm.ts';

type Open = null | 'invite' | 'rename' | 'panel' | 'settings' | { panelSettings: Panel };

/** A group's panels with their badges, and what those who manage the group or its panels may do with them. */
export function GroupSidebar(props: { group: Group; activeConverseId?: string }) {
  const { t } = useTranslation();
  const { group } = props;
  const unread = useStore((s) => s.unread);
  const levels = useAttention((s) => s.levels);
  const [open, setOpen] = useState<Open>(null);
  const { open: menu, setOpen: setMenu, ref: menuRef } = useMenu<HTMLElement>();
  const managesPanels = hasPermission(group, 'managePanels');
  const renames = hasPermission(group, 'manageGroup');
  const rosters = useCalls((s) => s.rosters);
  // Who is in each voice panel's call, asked once as the sidebar shows it; `call:updated` keeps it.
  const voiceConverses = group.panels
    .filter((p) => p.type === 'voice')
    .map((p) => p.converseId)
    .join(',');
  useEffect(() => {
    for (const converseId of voiceConverses.split(',').filter(Boolean)) void loadCallState(converseId);
  }, [voiceConverses]);
  return (
    <nav className="sidebar" aria-label={t('shell.sidebar.panels', { name: group.name })}>
      <header className="sidebar-head" ref={menuRef}>
        <button
          type="button"
          className="group-name"
          aria-label={t('shell.sidebar.groupMenu', { name: group.name })}
          aria-haspopup="menu"
          aria-expanded={menu}
          onClick={() => setMenu(!menu)}
        >
          {group.icon && (
            <span className="group-icon small">
              <GroupIcon group={group} />
            </span>
          )}
          <span title={group.name}>{group.name}</span> <Icon name="chevron" size={16} />
        </button>
        {menu && (
          <div className="menu" role="menu" onClick={() => setMenu(false)}>
            <button type="button" role="menuitem" onClick={() => setOpen('invite')}>
              {t('shell.sidebar.invite')}
            </button>
            {canOpenGroupSettings(group) && (
              <button type="button" role="menuitem" onClick={() => setOpen('settings')}>
                {t('shell.sidebar.groupSettings')}
              </button>
            )}
            {managesPanels && (
              <button type="button" role="menuitem" onClick={() => setOpen('panel')}>
                {t('shell.sidebar.createPanel')}
              </button>
            )}
            {renames && (
              <button type="button" role="menuitem" onClick={() => setOpen('rename')}>
                {t('shell.sidebar.renameGroup')}
              </button>
            )}
            {group.myRole === 'owner' ? (
              <button
                type="button"
                role="menuitem"
                className="danger"
                onClick={() =>
                  whenConfirmed({ message: 'shell.confirm.deleteGroup', values: { name: group.name } }, () =>
                    deleteGroup(group.id),
                  )
                }
              >
                {t('shell.sidebar.deleteGroup')}
              </button>
            ) : (
              <button
                type="button"
                role="menuitem"
                className="danger"
                onClick={() =>
                  whenConfirmed(
                    {
                      message: 'shell.confirm.leaveGroup',
                      values: { name: group.name },
                      confirm: 'shell.confirm.leave',
                    },
                    () => leaveGroup(group.id),
                  )
                }
              >
                {t('shell.sidebar.leaveGroup')}
              </button>
            )}
          </div>
        )}
      </header>
      <ul className="channel-list">
        {group.panels.map((panel) => {
          const active = panel.converseId === props.activeConverseId;
          const muted = isMuted(levels[panel.converseId]);
          const counts = heardBadge(unread[panel.converseId] ?? { unread: 0, mentions: 0 }, muted);
          return (
            <li
              key={panel.id}
              className={
                [active && 'active', panel.type === 'voice' && 'voice', muted && 'muted'].filter(Boolean).join(' ') ||
                undefined
              }
            >
              <button
                type="button"
                className={counts.unread > 0 ? 'channel unread' : 'channel'}
                aria-current={active ? 'page' : undefined}
                data-testid="panel-link"
                onClick={() => {
                  navigate({ name: 'group', groupId: group.id, converseId: panel.converseId });
                  if (panel.type === 'voice') joinVoicePanel(group.id, panel);
                }}
              >
                {panel.type === 'voice' ? (
                  <span className="voice-mark" title={t('shell.voicePanel')}>
                    <Icon name="speaker" size={16} />
                    <span className="visually-hidden">{t('shell.sidebar.voicePrefix')} </span>
                  </span>
                ) : (
                  <span aria-hidden="true"># </span>
                )}
                <span className="channel-name" title={panel.name}>
                  {panel.name}
                </span>
                {panel.private && (
                  <span className="private-mark" title={t('shell.sidebar.private')} data-testid="private-mark">
                    <Icon name="lock" size={14} />
                    <span className="visually-hidden"> ({t('shell.sidebar.privateShort')})</span>
                  </span>
                )}
                {panel.webPublic && (
                  <span className="web-public-mark" title={t('shell.sidebar.webPublic')} data-testid="web-public-mark">
                    <Icon name="globe" size={14} />
                    <span className="visually-hidden"> ({t('shell.sidebar.webPublicShort')})</span>
                  </span>
                )}
                <Badge counts={counts} testId="badge-panel" />
              </button>
              <MarkReadButton converseId={panel.converseId} name={`#${panel.name}`} />
              {managesPanels && (
                <span className="channel-tools">
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={t('shell.sidebar.editPanel', { name: panel.name })}
                    title={t('shell.sidebar.panelSettings')}
                    onClick={() => setOpen({ panelSettings: panel })}
                  >
                    <Icon name="gear" size={16} />
                  </button>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={t('shell.sidebar.deletePanel', { name: panel.name })}
                    onClick={() =>
                      whenConfirmed({ message: 'shell.confirm.deletePanel', values: { name: panel.name } }, () =>
                        deletePanel(group.id, panel.id),
                      )
                    }
                  >
                    <Icon name="trash" size={16} />
                  </button>
                </span>
              )}
              {panel.type === 'voice' && <CallRoster panelName={panel.name} participants={rosters[panel.converseId]} />}
            </li>
          );
        })}
      </ul>
      {open === 'invite' && <InviteDialog groupId={group.id} groupName={group.name} onClose={() => setOpen(null)} />}
      {open === 'rename' && <RenameGroupDialog groupId={group.id} name={group.name} onClose={() => setOpen(null)} />}
      {open === 'panel' && <PanelDialog groupId={group.id} onClose={() => setOpen(null)} />}
      {open === 'settings' && <GroupSettingsDialog group={group} onClose={() => setOpen(null)} />}
      {open !== null && typeof open === 'object' && (
        <PanelSettingsDialog groupId={group.id} panel={open.panelSettings} onClose={() => setOpen(null)} />
      )}
    </nav>
  );
}

/** Opening a voice panel joins its call, unless I am in it already. */
function joinVoicePanel(groupId: string, panel: Panel): void {
  const mine = useCalls.getState().mine;
  if (mine?.converseId === panel.converseId && mine.phase !== 'failed') return;
  void joinCall({ converseId: panel.converseId, kind: 'panel', groupId, name: `#${panel.name}` });
}

/** My direct conversations, newest first. */
export function DmSidebar(props: { activeConverseId?: string }) {
  const { t } = useTranslation();
  const dms = useStore((s) => s.dms);
  const order = useStore((s) => s.dmOrder);
  const users = useStore((s) => s.users);
  const presence = useStore((s) => s.presence);
  const statuses = useStore((s) => s.statuses);
  const unread = useStore((s) => s.unread);
  const levels = useAttention((s) => s.levels);
  const meId = useStore((s) => s.me?.id);
  const [searching, setSearching] = useState(false);
  return (
    <nav className="sidebar" aria-label={t('shell.rail.dms')}>
      <header className="sidebar-head">
        <h2>{t('shell.rail.dms')}</h2>
        <button
          type="button"
          className="icon-button"
          aria-label={t('shell.sidebar.newMessage')}
          onClick={() => setSearching(true)}
        >
          <Icon name="plus" />
        </button>
      </header>
      {searching && <NewMessageDialog onClose={() => setSearching(false)} />}
      {order.length === 0 && <p className="hint pad">{t('shell.sidebar.noDms')}</p>}
      <ul className="channel-list">
        {order.map((id) => {
          const dm = dms[id];
          if (!dm) return null;
          const otherId = dm.memberIds.find((m) => m !== meId) ?? meId!;
          const other = users[otherId];
          const active = id === props.activeConverseId;
          const muted = isMuted(levels[id]);
          const counts = heardBadge(dmBadge(unread[id]), muted);
          return (
            <li key={id} className={[active && 'active', muted && 'muted'].filter(Boolean).join(' ') || undefined}>
              <button
                type="button"
                className={counts.unread > 0 ? 'channel unread' : 'channel'}
                aria-current={active ? 'page' : undefined}
                data-testid="dm-link"
                onClick={() => navigate({ name: 'dm', converseId: id })}
              >
                <Avatar user={other} size={24} online={presence[otherId]} status={statuses[otherId]} />
                {displayName(other, '…')}
                <Badge counts={counts} />
              </button>
              <MarkReadButton converseId={id} name={displayName(other, t('shell.sidebar.thisConversation'))} />
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
