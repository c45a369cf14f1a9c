import { useTranslation } from 'react-i18next';
import { CopyButton, CopyField } from '../../../common/CopyButton.tsx';
import { absoluteUrl, curlExample } from './validation.ts';

/** An incoming webhook's address to copy, and a curl line that posts through it. */
export function HookAddress(props: { path: string; open?: boolean }) {
  const { t } = useTranslation();
  const url = absoluteUrl(props.path);
  const example = curlExample(url);
  return (
    <>
      <CopyField label={t('integrations.incoming.address')} value={url} testId="incoming-url" />
      <details className="hook-example" open={props.open}>
        <summary>{t('integrations.incoming.curl')}</summary>
        <pre data-testid="curl-example">
          <code>{example}</code>
        </pre>
        <CopyButton text={example} what={t('integrations.incoming.curlExample')} />
      </details>
    </>
  );
}
