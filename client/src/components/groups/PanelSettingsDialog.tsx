import type { Panel } from '@im/protocol';
import { useState, type FormEvent } from 'react';
import { updatePanel } from '../../state/groups.ts';
import { Dialog } from '../common/Dialog.tsx';
import { FormActions } from '../common/FormActions.tsx';
import { WebPublicSection } from './WebPublicSection.tsx';

/**
 * A panel's name and who may post in it (admins only: an announcement panel,
 * or for a voice panel a stage), saved together; and whether a text panel is
 * readable on the web, which applies at once.
 */
export function PanelSettingsDialog(props: { groupId: string; panel: Panel; onClose: () => void }) {
  const { panel } = props;
  const [name, setName] = useState(panel.name);
  const [adminOnly, setAdminOnly] = useState(panel.postingRole === 'admin');
  const [busy, setBusy] = useState(false);
  const voice = panel.type === 'voice';
  const postingRole: Panel['postingRole'] = adminOnly ? 'admin' : 'member';
  const patch = {
    ...(name.trim() !== panel.name ? { name: name.trim() } : {}),
    ...(postingRole !== (panel.postingRole ?? 'member') ? { postingRole } : {}),
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
    <Dialog title="Panel settings" onClose={props.onClose}>
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          Panel name
          <input value={name} maxLength={64} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label className="check">
          <input type="checkbox" checked={adminOnly} onChange={(e) => setAdminOnly(e.target.checked)} />
          {voice ? 'Only admins can speak (a stage)' : 'Only admins can post'}
        </label>
        <p className="hint">
          {voice
            ? 'Members still join a stage and listen; only the owner and admins speak and show video.'
            : 'Members still read an admin-only panel; only the owner and admins post in it.'}
        </p>
        <FormActions onCancel={props.onClose} submit="Save" disabled={busy || !name.trim()} />
      </form>
      {/* A voice panel has no messages to publish on the web. */}
      {!voice && <WebPublicSection groupId={props.groupId} panelId={panel.id} />}
    </Dialog>
  );
}
