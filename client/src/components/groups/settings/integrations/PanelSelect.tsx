import type { Panel } from '@im/protocol';
import { useTranslation } from 'react-i18next';
import { t } from '../../../../i18n/i18n.ts';

/** Picks one of the group's panels; with `allLabel`, an empty value means every panel. */
export function PanelSelect(props: {
  panels: readonly Panel[];
  value: string;
  onChange: (panelId: string) => void;
  allLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <label>
      {t('integrations.panel')}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.allLabel !== undefined && <option value="">{props.allLabel}</option>}
        {props.panels.map((p) => (
          <option key={p.id} value={p.id}>
            #{p.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** "#general", or what an id no longer in the group is called. */
export function panelLabel(
  panels: readonly Panel[],
  panelId: string | undefined,
  none = t('integrations.allPanels'),
): string {
  if (!panelId) return none;
  const panel = panels.find((p) => p.id === panelId);
  return panel ? `#${panel.name}` : t('integrations.deletedPanel');
}
