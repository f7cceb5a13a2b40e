/**
 * `npm run docs:config`: writes docs/configuration.md from the setting table
 * in src/config.ts. test/docs/configuration.test.ts fails while the committed
 * page differs from what this writes.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CONFIGURATION_PAGE, configurationPage } from './docs-config/page.js';

// dist/scripts/docs-config.js -> the repository's root
const target = fileURLToPath(new URL(`../../${CONFIGURATION_PAGE}`, import.meta.url));
await writeFile(target, configurationPage());
process.stdout.write(`wrote ${CONFIGURATION_PAGE}\n`);
