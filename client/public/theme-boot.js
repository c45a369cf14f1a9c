// Sets <html data-theme> before the first paint (a blocking script in <head>),
// so a light screen never flashes dark or the other way round. The same rule
// as src/theme/preference.ts: the choice kept under "im.theme" on this device,
// else the system's colour scheme. The app takes over once it has loaded.
(function () {
  var doc = globalThis.document;
  var theme;
  try {
    theme = globalThis.localStorage.getItem('im.theme');
  } catch {
    theme = null;
  }
  if (theme !== 'light' && theme !== 'dark')
    theme = globalThis.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
  doc.documentElement.dataset.theme = theme;
  var scheme = doc.querySelector('meta[name="color-scheme"]');
  if (scheme) scheme.content = theme;
  var color = doc.querySelector('meta[name="theme-color"]');
  if (color) color.content = theme === 'light' ? '#f2f3f5' : '#1e1f22';
})();
