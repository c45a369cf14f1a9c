/** Text made safe inside HTML elements and attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A button-like link (mail clients drop stylesheets: every style is inline). */
export const buttonHtml = (url: string, label: string): string =>
  `<a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#3b5bdb;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(label)}</a>`;

/**
 * The HTML frame every e-mail shares: a narrow column, the site's name on
 * top, `footer` (already HTML) below. Inline styles only; no images, so
 * nothing is fetched when the e-mail is opened.
 */
export function emailHtml(options: { site: string; title: string; body: string; footer: string }): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(options.title)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1f2933">
<div style="max-width:600px;margin:0 auto;padding:24px 16px">
<div style="font-size:14px;color:#52606d;margin-bottom:12px">${escapeHtml(options.site)}</div>
<div style="background:#ffffff;border-radius:8px;padding:24px;line-height:1.5;font-size:15px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(options.title)}</h1>
${options.body}
</div>
<div style="font-size:12px;color:#7b8794;margin-top:16px;line-height:1.5">${options.footer}</div>
</div>
</body>
</html>
`;
}
