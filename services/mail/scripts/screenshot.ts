// `npm run mail:screenshot`: renders a sample missed-message e-mail with the
// real template and photographs its HTML in Chromium for the docs
// (docs/mail-digest.png).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { renderDigest } from '../src/templates/digest-mail.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT = fileURLToPath(new URL('../../../docs/mail-digest.png', import.meta.url));
const base = 'https://chat.example.org';
const at = (minutesAgo: number) => new Date(Date.UTC(2026, 10, 27, 9, 30) - minutesAgo * 60_000);

const mail = renderDigest({
  site: 'chat.example.org',
  nickname: 'Dana',
  unsubscribeUrl: `${base}/unsubscribe?token=…`,
  sections: [
    {
      title: 'Direct message from Sam Lee',
      url: `${base}/c/65f0c0ffee0000000000001a`,
      messages: [
        {
          author: 'Sam Lee',
          sentAt: at(14),
          content: 'Are you joining the **release review** at 11? The notes are at https://wiki.example.org/release',
          url: `${base}/c/65f0c0ffee0000000000001a?message=65f0c0ffee0000000000002a`,
        },
        {
          author: 'Sam Lee',
          sentAt: at(12),
          content: 'Also: the ending of the book is ||the butler did it||, sorry',
          url: `${base}/c/65f0c0ffee0000000000001a?message=65f0c0ffee0000000000002b`,
        },
      ],
    },
    {
      title: '#general in Platform team',
      url: `${base}/c/65f0c0ffee0000000000001b`,
      messages: [
        {
          author: 'Robin',
          sentAt: at(9),
          content: '@dana can you check the deploy?\n\n```\nnpm run cluster\n```\n- staging first\n- then _production_',
          url: `${base}/c/65f0c0ffee0000000000001b?message=65f0c0ffee0000000000002c`,
        },
      ],
    },
  ],
});

if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (bash scripts/setup.sh test installs it)`);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: 680, height: 400 }, deviceScaleFactor: 1 });
  // The e-mail loads nothing from elsewhere: any request would be a template bug.
  await page.route('**/*', (route) => route.abort());
  await page.setContent(mail.html, { waitUntil: 'load' });
  await page.screenshot({ path: OUT, fullPage: true });
  process.stdout.write(`wrote ${OUT} (subject: ${mail.subject})\n`);
} finally {
  await browser.close();
}
