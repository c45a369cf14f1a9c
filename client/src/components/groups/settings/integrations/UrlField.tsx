import { useTranslation } from 'react-i18next';
import { MAX_URL } from './validation.ts';

/** The address a webhook or command sends to. */
export function UrlField(props: { placeholder: string; value: string; onChange: (url: string) => void }) {
  const { t } = useTranslation();
  return (
    <label>
      {t('integrations.url')}
      <input
        type="url"
        inputMode="url"
        placeholder={props.placeholder}
        value={props.value}
        maxLength={MAX_URL}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}
