/** Marks an author as a bot (a group's bot, or the one a webhook or command posts as). */
export function BotBadge() {
  return (
    <span className="bot-badge" data-testid="bot-badge" title="Bot: posts for an integration, not a person">
      BOT
    </span>
  );
}
