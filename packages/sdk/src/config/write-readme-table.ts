// Rewrites the configuration table in the root README from the schema.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withConfigTable } from './describe.ts';

const readmePath = fileURLToPath(new URL('../../../../README.md', import.meta.url));
writeFileSync(readmePath, withConfigTable(readFileSync(readmePath, 'utf8')));
console.log(`updated ${readmePath}`);
