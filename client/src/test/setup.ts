import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
// Components translate through the app's i18next instance (English under jsdom's navigator).
import '../i18n/i18n.ts';

// jsdom has no layout: the virtualized list gets its sizes from VirtuosoMockContext
// in the tests, and needs a ResizeObserver to exist at all.
class NoLayoutResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= NoLayoutResizeObserver as unknown as typeof ResizeObserver;

afterEach(() => cleanup());
