import type { CallRecord } from '@im/protocol';
import { callRecordText } from '../../state/call-logic.ts';
import { Icon } from '../common/Icon.tsx';
import { formatTime } from '../messages/format.ts';

/** A DM call that ended, as one compact line in the timeline (the server's plain text is for other clients). */
export function CallRecordLine(props: { record: CallRecord; mine: boolean; at: string }) {
  const { outcome } = props.record;
  return (
    <div className={`call-record ${outcome}`} data-testid="call-record" data-outcome={outcome}>
      <Icon name={outcome === 'ended' ? 'phone' : 'hangup'} size={16} />
      <span>{callRecordText(props.record, props.mine)}</span>
      <time dateTime={props.at}>{formatTime(props.at)}</time>
    </div>
  );
}
