import { useTranslation } from 'react-i18next';
import { joinCall, useCalls } from '../../state/calls.ts';
import { Icon } from '../common/Icon.tsx';
import { CallStage } from './CallStage.tsx';

/** The DM header's call button: calls the other member (their app rings); hidden while in this call. */
export function DmCallButton(props: { converseId: string; name: string }) {
  const { t } = useTranslation();
  const inThisCall = useCalls(
    (s) => s.mine?.converseId === props.converseId && ['connecting', 'calling', 'live'].includes(s.mine.phase),
  );
  if (inThisCall) return null;
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={t('calls.start')}
      title={t('calls.call')}
      onClick={() => void joinCall({ converseId: props.converseId, kind: 'dm', name: props.name })}
    >
      <Icon name="phone" />
    </button>
  );
}

/** The DM's call, above its messages, while I am in it. */
export function DmCallStage(props: { converseId: string }) {
  const phase = useCalls((s) => (s.mine?.converseId === props.converseId ? s.mine.phase : undefined));
  if (phase !== 'live' && phase !== 'calling') return null;
  return (
    <div className="dm-call" data-testid="dm-call">
      <CallStage />
    </div>
  );
}
