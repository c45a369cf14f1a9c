import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom has no layout: the virtualized list gets its sizes from VirtuosoMockContext
// in the tests, and needs a ResizeObserver to exist at all.
class NoLayoutResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= NoLayoutResizeObserver as unknown as typeof ResizeObserver;

afterEach(() => cleanup());
