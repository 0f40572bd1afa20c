// Keeps package-lock.json free of host names, as the repository requires: .npmrc already stops npm from writing
// "resolved" download URLs; this drops the packages' "funding" links too, and with --check fails when any URL is
// left. Run it after every `npm install` that changes the lockfile; `npm ci` needs neither field.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = fileURLToPath(new URL('../package-lock.json', import.meta.url));
const text = readFileSync(file, 'utf8');
if (process.argv.includes('--check')) {
	const urls = text.match(/[a-z][a-z0-9+.-]*:\/\/[^"\s]*/gi) ?? [];
	if (urls.length > 0) {
		console.error(`site/package-lock.json names ${urls.length} URL(s), e.g. ${urls[0]}: run node scripts/lockfile.mjs`);
		process.exit(1);
	}
	process.exit(0);
}
const lock = JSON.parse(text);
for (const entry of Object.values(lock.packages ?? {})) {
	delete entry.resolved;
	delete entry.funding;
}
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
