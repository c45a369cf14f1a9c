import Bowser from 'bowser';

/** A session's browser and system as parts a message can name ("Chrome", "Linux"), from its raw user-agent string. */
export function describeUserAgent(userAgent: string): { browser?: string; os?: string } {
  if (!userAgent) return {};
  const { browser, os } = Bowser.parse(userAgent);
  return {
    ...(browser.name ? { browser: browser.name } : {}),
    ...(os.name ? { os: os.name } : {}),
  };
}
