import { useEffect, useState } from 'react';

type Highlight = (code: string, language: string) => string;
let loading: Promise<Highlight> | undefined;

/** The highlighter, fetched once, the first time a code block is shown. */
const loadHighlighter = (): Promise<Highlight> => (loading ??= import('./highlight.ts').then((m) => m.highlight));

/**
 * A fenced code block: plain text at once, highlighted as soon as the
 * highlighter has loaded (its HTML is highlight.js's escaped output).
 */
export function CodeBlock(props: { code: string; language: string }) {
  const { code, language } = props;
  const [html, setHtml] = useState<{ code: string; language: string; html: string } | null>(null);
  useEffect(() => {
    let live = true;
    void loadHighlighter().then((highlight) => {
      if (live) setHtml({ code, language, html: highlight(code, language) });
    });
    return () => {
      live = false;
    };
  }, [code, language]);
  const ready = html && html.code === code && html.language === language ? html.html : null;
  return (
    <pre className="code-block" data-language={language || undefined}>
      {ready === null ? (
        <code>{code}</code>
      ) : (
        <code className="hljs" data-highlighted="yes" dangerouslySetInnerHTML={{ __html: ready }} />
      )}
    </pre>
  );
}
