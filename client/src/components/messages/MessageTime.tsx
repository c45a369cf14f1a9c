import { useTranslation } from 'react-i18next';

/** A message's time: short in the header, the full date and time in its tooltip (localized by the catalog). */
export function MessageTime(props: { at: string }) {
  const { t } = useTranslation();
  const at = new Date(props.at);
  return (
    <time dateTime={props.at} title={t('timeline.time.full', { at })} data-testid="message-time">
      {t('timeline.time.short', { at })}
    </time>
  );
}

/** "(edited)" at the end of the text, with when in its tooltip. */
export function EditedMark(props: { at: string }) {
  const { t } = useTranslation();
  const at = new Date(props.at);
  return (
    <>
      {' '}
      <span className="edited" title={t('timeline.edited.at', { at })} data-testid="edited">
        {t('timeline.edited')}
      </span>
    </>
  );
}
