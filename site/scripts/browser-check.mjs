// Loads the built site (dist/) in a headless Debian Chromium, served from 127.0.0.1 by this process: the English
// home page and a Chinese page must show their title and the navigation, the site's search (Pagefind, as Starlight
// ships it) must return the configuration page for a variable name, and no request may leave 127.0.0.1. Writes
// screenshots to target/screenshots/. Without a Chromium it says so in one line and exits 0; any failure exits 1.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const site = fileURLToPath(new URL('..', import.meta.url));
const dist = join(site, 'dist');
const shots = join(site, 'target', 'screenshots');
const chromium = process.env.SERVERFS_CHROMIUM ?? '/usr/bin/chromium';
const VARIABLE = 'SERVERFS_AGENT_INTERACTION_TIMEOUT_SECONDS';
const DEADLINE_MS = 30_000;

const TYPES = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript',
	'.mjs': 'text/javascript',
	'.css': 'text/css',
	'.svg': 'image/svg+xml',
	'.json': 'application/json',
	'.wasm': 'application/wasm',
	'.xml': 'application/xml',
	'.txt': 'text/plain',
};

/** A static file server for dist/ on 127.0.0.1 and an ephemeral port. */
function serve() {
	const server = createServer((req, res) => {
		const path = normalize(decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname)).replace(/^(\.\.[/\\])+/, '');
		let file = join(dist, path);
		if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
		if (!file.startsWith(dist) || !existsSync(file)) {
			res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
			res.end(existsSync(join(dist, '404.html')) ? readFileSync(join(dist, '404.html')) : 'not found');
			return;
		}
		res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
		res.end(readFileSync(file));
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function check(condition, message) {
	if (!condition) throw new Error(message);
}

async function main() {
	if (!existsSync(chromium)) {
		console.log(`site browser check: skipped: no Chromium at ${chromium} (Debian: apt-get install chromium)`);
		return;
	}
	check(existsSync(join(dist, 'index.html')), 'dist/index.html is missing: run npm run build first');
	const { chromium: browserType } = await import('playwright-core');
	const server = await serve();
	const base = `http://127.0.0.1:${server.address().port}`;
	const profile = mkdtempSync(join(tmpdir(), 'serverfs-site-chromium-'));
	const context = await browserType.launchPersistentContext(profile, {
		executablePath: chromium,
		headless: true,
		timeout: DEADLINE_MS,
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
	const elsewhere = [];
	try {
		context.setDefaultTimeout(DEADLINE_MS);
		const page = context.pages()[0] ?? (await context.newPage());
		page.on('request', (r) => {
			if (!r.url().startsWith(base) && !r.url().startsWith('data:')) elsewhere.push(r.url());
		});
		mkdirSync(shots, { recursive: true });

		await page.goto(`${base}/`, { waitUntil: 'load' });
		check((await page.title()).includes('ServerFS'), `home page title: ${await page.title()}`);
		check((await page.locator('h1').first().innerText()).trim() === 'ServerFS', 'home page heading');
		const nav = page.locator('nav.sidebar[aria-label]');
		check((await nav.locator('a[href="/getting-started/"]').count()) === 1, 'home page navigation: Getting started');
		check((await nav.locator('a[href="/reference/configuration/"]').count()) === 1, 'home page navigation: reference');
		await page.screenshot({ path: join(shots, 'home.png'), fullPage: false });

		await page.goto(`${base}/zh-cn/agents/`, { waitUntil: 'load' });
		check((await page.locator('html').getAttribute('lang')) === 'zh-CN', 'Chinese page: lang');
		const heading = (await page.locator('h1').first().innerText()).trim();
		check(heading === 'Agent 委派', `Chinese page heading: ${heading}`);
		check((await page.title()).startsWith('Agent 委派'), `Chinese page title: ${await page.title()}`);
		const zhNav = page.locator('nav.sidebar[aria-label]');
		check((await zhNav.locator('a[href="/zh-cn/getting-started/"]').count()) === 1, 'Chinese navigation: 快速上手');
		check((await zhNav.innerText()).includes('指南'), 'Chinese navigation: its group labels');
		await page.screenshot({ path: join(shots, 'zh-cn-agents.png'), fullPage: false });

		await page.goto(`${base}/`, { waitUntil: 'load' });
		await page.locator('button[data-open-modal]:not([disabled])').first().click();
		await page.locator('dialog[open] input').first().fill(VARIABLE);
		const results = page.locator('dialog[open] a.pagefind-ui__result-link');
		await results.first().waitFor({ state: 'visible' });
		// The distinct pages found, in Pagefind's order (a page can also come back as several sub-results).
		const hrefs = [...new Set(await results.evaluateAll((links) => links.map((a) => new URL(a.href).pathname)))];
		check(
			hrefs.slice(0, 5).some((h) => h === '/configuration/' || h === '/reference/configuration/'),
			`search for ${VARIABLE} returned ${hrefs.join(', ')}`,
		);
		await page.screenshot({ path: join(shots, 'search.png'), fullPage: false });
		check(elsewhere.length === 0, `requests left 127.0.0.1: ${elsewhere.join(', ')}`);
		console.log(
			`site browser check: passed (home and /zh-cn/agents/ with title and navigation; search for ${VARIABLE}: ` +
				`${hrefs.join(', ')}); screenshots in ${shots}`,
		);
	} finally {
		await context.close();
		server.close();
		rmSync(profile, { recursive: true, force: true });
	}
}

main().catch((e) => {
	console.error(`site browser check: FAILED: ${e.message}`);
	process.exit(1);
});
