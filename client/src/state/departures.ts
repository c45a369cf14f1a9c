// What the app says when something I am in goes away under me (a panel or a
// group deleted, me removed from a group): without a word the screen would
// just move elsewhere.
import { t } from '../i18n/i18n.ts';
import { getState, notify } from './store.ts';

/** Before a panel is dropped: a notice when it is the one on screen. */
export function noticePanelDeleted(groupId: string, panelId: string): void {
  const { route, groups } = getState();
  const panel = groups[groupId]?.panels.find((p) => p.id === panelId);
  if (!panel || route.name !== 'group' || route.groupId !== groupId || route.converseId !== panel.converseId) return;
  notify(t('shell.notice.panelDeleted', { name: panel.name }), 'info');
}

/** Before a group I hold is dropped: deleted by its owner, or I was removed (kicked or banned). */
export function noticeGroupGone(groupId: string, why: 'deleted' | 'removed'): void {
  const group = getState().groups[groupId];
  if (!group) return; // Already gone: I deleted or left it myself.
  notify(t(why === 'deleted' ? 'shell.notice.groupDeleted' : 'shell.notice.removed', { name: group.name }), 'info');
}
