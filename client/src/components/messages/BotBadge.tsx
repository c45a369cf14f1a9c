import { useTranslation } from 'react-i18next';
/** Marks an author as a bot (a group's bot, or the one a webhook or command posts as). */
export function BotBadge() {
  const { t } = useTranslation();
  return (
    <span className="bot-badge" data-testid="bot-badge" title={t('posts.bot.title')}>
      {t('posts.bot')}
    </span>
  );
}
