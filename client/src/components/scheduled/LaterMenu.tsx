import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { Icon, type IconName } from '../common/Icon.tsx';
import { useMenu } from '../common/useMenu.ts';
import { fromLocalInput, toLocalInput, type LaterChoice } from '../messages/later-times.ts';

/**
 * A button opening a small menu of times (quick choices, then a date and
 * time of one's own): "Send later" in the composer, "Remind me" on a message.
 */
export function LaterMenu(props: {
  label: string;
  icon: IconName;
  className?: string;
  disabled?: boolean;
  choices: () => LaterChoice[];
  /** What the custom time's button says ("Schedule", "Remind me"). */
  confirm: string;
  onPick: (at: Date) => void;
}) {
  const { t } = useTranslation();
  const { open, setOpen, ref } = useMenu<HTMLDivElement>();
  const [custom, setCustom] = useState('');
  const customAt = fromLocalInput(custom);
  const pick = (at: Date) => {
    setOpen(false);
    setCustom('');
    props.onPick(at);
  };
  return (
    <div ref={ref} className={`later-menu ${props.className ?? ''}`}>
      <button
        type="button"
        className="icon-button"
        aria-label={props.label}
        title={props.label}
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={props.disabled}
        onClick={() => setOpen(!open)}
      >
        <Icon name={props.icon} size={18} />
      </button>
      {open && (
        <div className="menu later-choices" role="menu" aria-label={props.label}>
          <div className="menu-title">{props.label}</div>
          {props.choices().map((choice) => (
            <button key={choice.label} type="button" role="menuitem" onClick={() => pick(choice.at)}>
              {choice.label}
            </button>
          ))}
          <form
            className="later-custom"
            onSubmit={(e) => {
              e.preventDefault();
              if (customAt && customAt.getTime() > Date.now()) pick(customAt);
            }}
          >
            <input
              type="datetime-local"
              aria-label={t('scheduled.dateTime')}
              // To the second: "in a few seconds" is a time too.
              step={1}
              value={custom}
              min={toLocalInput(new Date())}
              onChange={(e) => setCustom(e.target.value)}
            />
            <button type="submit" disabled={!customAt || customAt.getTime() <= Date.now()}>
              {props.confirm}
            </button>
          </form>
        </div>
      )}
    </div>
  );
}
