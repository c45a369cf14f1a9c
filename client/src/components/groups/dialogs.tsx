import type { Invite, Panel } from '@im/protocol';
import { PanelAccessFields, type PanelAccess } from './PanelAccessFields.tsx';
import { PanelNameFields } from './PanelNameFields.tsx';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../state/navigation.ts';
import { useStore } from '../../state/store.ts';
import { InviteCard } from '../join/InviteCard.tsx';
import { useInvitePreview } from '../join/useInvitePreview.ts';
import { describeError } from '../../api/errors.ts';
import { acceptInvite, createGroup, createInvite, createPanel, renameGroup } from '../../state/groups.ts';
import { inviteCodeFrom } from '../../state/route.ts';
import { Dialog } from '../common/Dialog.tsx';
import { InviteLink } from './InviteLink.tsx';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { FormActions } from '../common/FormActions.tsx';

/** A one-field form in a dialog; `submit` answers an error to show, or nothing when done. */
function NameDialog(props: {
  title: string;
  label: string;
  initial?: string;
  action: string;
  maxLength?: number;
  /** Shown above the field (an invite's group). */
  intro?: ReactNode;
  onClose: () => void;
  submit: (value: string) => Promise<string | void>;
}) {
  const [value, setValue] = useState(props.initial ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!value.trim()) return;
    setBusy(true);
    const failure = await props.submit(value.trim());
    setBusy(false);
    if (failure) setError(failure);
    else props.onClose();
  };
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      {props.intro}
      <form onSubmit={(e) => void onSubmit(e)} className="form">
        <label>
          {props.label}
          <input value={value} maxLength={props.maxLength ?? 64} onChange={(e) => setValue(e.target.value)} required />
        </label>
        <ErrorLine error={error} />
        <FormActions onCancel={props.onClose} submit={props.action} disabled={busy || !value.trim()} />
      </form>
    </Dialog>
  );
}

export function CreateGroupDialog(props: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <NameDialog
      title={t('shell.createGroup')}
      label={t('shell.groupName')}
      action={t('shell.create')}
      onClose={props.onClose}
      submit={async (name) => {
        await createGroup(name);
      }}
    />
  );
}

/** Joins by an invite's link or code; opened from a link, it shows the group first (InviteCard). */
export function JoinGroupDialog(props: { onClose: () => void; initialCode?: string }) {
  const { t } = useTranslation();
  return (
    <NameDialog
      title={t('join.dialogTitle')}
      label={t('join.codeLabel')}
      action={t('join.joinButton')}
      maxLength={500}
      initial={props.initialCode}
      intro={props.initialCode ? <LinkedInvite code={props.initialCode} onClose={props.onClose} /> : undefined}
      onClose={props.onClose}
      submit={async (input) => {
        try {
          await acceptInvite(inviteCodeFrom(input));
        } catch (err) {
          return describeError(err);
        }
      }}
    />
  );
}

/** The group a followed link invites to; one I am in already just opens (I joined as I signed up). */
function LinkedInvite(props: { code: string; onClose: () => void }) {
  const preview = useInvitePreview(props.code);
  const groupId = preview?.group.id;
  const mine = useStore((s) => (groupId ? s.groups[groupId] : undefined));
  useEffect(() => {
    if (!mine) return;
    navigate({ name: 'group', groupId: mine.id, converseId: mine.panels[0]?.converseId }, { replace: true });
    props.onClose();
  }, [mine, props]);
  return <InviteCard preview={preview} />;
}

export function RenameGroupDialog(props: { groupId: string; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <NameDialog
      title={t('shell.renameTitle')}
      label={t('shell.groupName')}
      action={t('common.save')}
      initial={props.name}
      onClose={props.onClose}
      submit={(name) => renameGroup(props.groupId, name)}
    />
  );
}

/**
 * A new panel, for text or for voice, with a topic if wanted, private from the
 * start if wanted; an existing one is changed in PanelSettingsDialog.
 */
export function PanelDialog(props: { groupId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [type, setType] = useState<Panel['type']>('text');
  const [topic, setTopic] = useState('');
  const [access, setAccess] = useState<PanelAccess>({ private: false, allowRoleIds: [], allowUserIds: [] });
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    const options = {
      ...(topic.trim() ? { topic: topic.trim() } : {}),
      ...(access.private ? access : {}),
    };
    const panel = await createPanel(props.groupId, name.trim(), type, options);
    setBusy(false);
    if (panel) props.onClose();
  };
  return (
    <Dialog title={t('shell.panel.createTitle')} onClose={props.onClose}>
      <form onSubmit={(e) => void onSubmit(e)} className="form">
        <fieldset className="panel-type">
          <legend>{t('shell.panel.type')}</legend>
          <label>
            <input type="radio" name="panel-type" checked={type === 'text'} onChange={() => setType('text')} />
            {t('shell.panel.text')}
          </label>
          <label>
            <input type="radio" name="panel-type" checked={type === 'voice'} onChange={() => setType('voice')} />
            {t('shell.panel.voice')}
          </label>
        </fieldset>
        <PanelNameFields name={name} onName={setName} topic={topic} onTopic={setTopic} />
        <PanelAccessFields groupId={props.groupId} value={access} onChange={setAccess} />
        <FormActions onCancel={props.onClose} submit={t('shell.create')} disabled={busy || !name.trim()} />
      </form>
    </Dialog>
  );
}

/** Makes an invite at once and shows its link to copy. */
export function InviteDialog(props: { groupId: string; groupName: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [invite, setInvite] = useState<Invite | null>(null);
  useEffect(() => {
    void createInvite(props.groupId).then(setInvite);
  }, [props.groupId]);
  return (
    <Dialog title={t('join.inviteTitle', { name: props.groupName })} onClose={props.onClose}>
      {invite ? <InviteLink invite={invite} /> : <p>{t('join.creatingInvite')}</p>}
    </Dialog>
  );
}
