import { useTranslation } from 'react-i18next';
import type { Panel } from '@im/protocol';
import { useState, type FormEvent } from 'react';
import { updatePanel, type PanelPatch } from '../../state/groups.ts';
import { PanelNameFields } from './PanelNameFields.tsx';
import { Dialog } from '../common/Dialog.tsx';
import { FormActions } from '../common/FormActions.tsx';
import { PanelAccessFields, type PanelAccess } from './PanelAccessFields.tsx';
import { WebPublicSection } from './WebPublicSection.tsx';

const sameIds = (a: string[], b: string[]) => a.length === b.length && a.every((id) => b.includes(id));

/**
 * A panel's name, topic, who may post in it (admins only: an announcement
 * panel, or for a voice panel a stage) and who sees it (private: allowed roles
 * and people only), saved together; and whether a text panel is readable on
 * the web, which applies at once.
 */
export function PanelSettingsDialog(props: { groupId: string; panel: Panel; onClose: () => void }) {
  const { t } = useTranslation();
  const { panel } = props;
  const [name, setName] = useState(panel.name);
  const [topic, setTopic] = useState(panel.topic ?? '');
  const [adminOnly, setAdminOnly] = useState(panel.postingRole === 'admin');
  const [access, setAccess] = useState<PanelAccess>({
    private: panel.private,
    allowRoleIds: panel.allowRoleIds ?? [],
    allowUserIds: panel.allowUserIds ?? [],
  });
  const [busy, setBusy] = useState(false);
  const voice = panel.type === 'voice';
  const postingRole: Panel['postingRole'] = adminOnly ? 'admin' : 'member';
  const accessChanged =
    access.private !== panel.private ||
    (access.private &&
      (!sameIds(access.allowRoleIds, panel.allowRoleIds ?? []) ||
        !sameIds(access.allowUserIds, panel.allowUserIds ?? [])));
  const patch: PanelPatch = {
    ...(name.trim() !== panel.name ? { name: name.trim() } : {}),
    ...(topic.trim() !== (panel.topic ?? '') ? { topic: topic.trim() } : {}),
    ...(postingRole !== (panel.postingRole ?? 'member') ? { postingRole } : {}),
    ...(accessChanged
      ? access.private
        ? { private: true, allowRoleIds: access.allowRoleIds, allowUserIds: access.allowUserIds }
        : { private: false }
      : {}),
  };
  const changed = Object.keys(patch).length > 0;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return props.onClose();
    setBusy(true);
    // updatePanel shows its own failure as a notice; the dialog stays open to try again.
    const done = await updatePanel(props.groupId, panel.id, patch);
    setBusy(false);
    if (done) props.onClose();
  };
  return (
    <Dialog title={t('groups.panel.settings')} onClose={props.onClose}>
      <form onSubmit={(e) => void submit(e)} className="form">
        <PanelNameFields name={name} onName={setName} topic={topic} onTopic={setTopic} />
        <label className="check">
          <input type="checkbox" checked={adminOnly} onChange={(e) => setAdminOnly(e.target.checked)} />
          {voice ? t('groups.panel.stage') : t('groups.panel.adminOnly')}
        </label>
        <p className="hint">{voice ? t('groups.panel.stage.hint') : t('groups.panel.adminOnly.hint')}</p>
        <PanelAccessFields groupId={props.groupId} value={access} onChange={setAccess} />
        <FormActions onCancel={props.onClose} submit={t('common.save')} disabled={busy || !name.trim()} />
      </form>
      {/* A voice panel has no messages to publish on the web. */}
      {!voice && <WebPublicSection groupId={props.groupId} panelId={panel.id} />}
    </Dialog>
  );
}
