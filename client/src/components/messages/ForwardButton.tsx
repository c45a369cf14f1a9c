import { useTranslation } from 'react-i18next';
import './forwarding.css';
import type { Message } from '@im/protocol';
import { useState } from 'react';
import { useStore } from '../../state/store.ts';
import { Dialog } from '../common/Dialog.tsx';
import { ErrorLine } from '../common/ErrorLine.tsx';
import { Icon } from '../common/Icon.tsx';
import { useAction } from '../common/useAction.ts';
import { forwardTargets } from './forward-targets.ts';
import { api } from '../../api/api.ts';

/** "Forward" in a message's actions: picks a converse I can write in and sends a copy there. */
export function ForwardButton(props: { message: Message }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" aria-label={t('posts.forward')} onClick={() => setOpen(true)}>
        <Icon name="forward" size={18} />
      </button>
      {open && <ForwardDialog message={props.message} onClose={() => setOpen(false)} />}
    </>
  );
}

function ForwardDialog(props: { message: Message; onClose: () => void }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const groups = useStore((s) => s.groups);
  const dms = useStore((s) => s.dms);
  const users = useStore((s) => s.users);
  const meId = useStore((s) => s.me?.id ?? '');
  const targets = forwardTargets({ groups, dms, users }, meId, query);
  const forward = (converseId: string, label: string) =>
    void run(async () => {
      await api.call('chat.forward', { messageId: props.message.id, converseId });
      setSentTo(label);
    });
  return (
    <Dialog title={t('posts.forward.title')} onClose={props.onClose}>
      <blockquote className="forward-preview">{props.message.content}</blockquote>
      <input
        type="search"
        aria-label={t('posts.forward.find')}
        placeholder={t('posts.forward.find.placeholder')}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <ul className="forward-targets" aria-label={t('posts.forward.list')}>
        {targets.map((target) => (
          <li key={target.converseId}>
            <button type="button" disabled={busy} onClick={() => forward(target.converseId, target.label)}>
              {target.label}
            </button>
          </li>
        ))}
        {targets.length === 0 && <li className="hint">{t('posts.forward.none')}</li>}
      </ul>
      <ErrorLine error={error} />
      {sentTo && (
        <p role="status" data-testid="forwarded-status">
          {t('posts.forward.done', { to: sentTo })}
        </p>
      )}
    </Dialog>
  );
}
