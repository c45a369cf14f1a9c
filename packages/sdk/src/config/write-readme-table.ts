// `npm run config:docs`: rewrites the tables generated from code: the
// configuration table in the root README (from the config schema) and the
// rate-limit table in docs/operations.md (from the rate-limit policy).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withRateLimitTable } from '../rate-limit/describe.ts';
import { withConfigTable } from './describe.ts';

const rewrite = (relative: string, update: (text: string) => string) => {
  const path = fileURLToPath(new URL(relative, import.meta.url));
  writeFileSync(path, update(readFileSync(path, 'utf8')));
  console.log(`updated ${path}`);
};
rewrite('../../../../README.md', withConfigTable);
rewrite('../../../../docs/operations.md', withRateLimitTable);
