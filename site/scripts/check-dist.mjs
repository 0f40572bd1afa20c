// Checks the built site (dist/) after `astro build`, and fails the build on any problem:
//  * every internal link and asset (href, src) names a file of dist/, and every #anchor an id on its page;
//  * nothing is loaded from another host (no CDN, no external font, script or stylesheet): dist/ works offline;
//  * every variable of ../.env.example appears on the configuration pages, in both languages.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every file under dir, as paths relative to it with `/`. */
function files(dir) {
	const out = [];
	const walk = (d) => {
		for (const entry of readdirSync(d, { withFileTypes: true })) {
			const full = join(d, entry.name);
			if (entry.isDirectory()) walk(full);
			else out.push(relative(dir, full).split(sep).join('/'));
		}
	};
	walk(dir);
	return out;
}

const ids = (html) => new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]));
const decode = (s) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'");

/** The dist file a site path names (`/a/` → `a/index.html`), or null when there is none. */
function target(dist, path) {
	let p = decodeURIComponent(path).replace(/^\/+/, '');
	const candidates = p === '' || p.endsWith('/') ? [`${p}index.html`] : [p, `${p}/index.html`, `${p}.html`];
	for (const c of candidates) {
		const full = join(dist, c);
		if (existsSync(full) && statSync(full).isFile()) return c;
	}
	return null;
}

/** Broken internal links and anchors, and anything loaded from another host, in every HTML and CSS file. */
export function checkLinks(dist) {
	const problems = [];
	const all = files(dist);
	const htmlCache = new Map();
	const html = (file) => {
		if (!htmlCache.has(file)) htmlCache.set(file, readFileSync(join(dist, file), 'utf8'));
		return htmlCache.get(file);
	};
	for (const file of all.filter((f) => f.endsWith('.html'))) {
		const page = html(file);
		const base = new URL(`http://site.invalid/${file}`);
		// Resources the browser loads by itself must all come from dist/.
		for (const m of page.matchAll(/<(script|img|iframe|source|link)\b[^>]*?\s(?:src|href)="([^"]+)"/g)) {
			if (/^(https?:)?\/\//i.test(m[2])) problems.push(`${file}: loads ${m[2]} from another host`);
		}
		for (const m of page.matchAll(/\s(href|src)="([^"]*)"/g)) {
			const raw = decode(m[2]);
			if (raw === '' || /^(https?:|mailto:|data:|javascript:|tel:)/i.test(raw) || raw.startsWith('//')) continue;
			const url = new URL(raw, base);
			if (url.host !== 'site.invalid') continue;
			const found = target(dist, url.pathname);
			if (!found) {
				problems.push(`${file}: broken link ${raw}`);
				continue;
			}
			if (url.hash.length > 1 && found.endsWith('.html')) {
				const anchor = decodeURIComponent(url.hash.slice(1));
				if (!ids(html(found)).has(anchor)) problems.push(`${file}: broken anchor ${raw} (no id "${anchor}" in ${found})`);
			}
		}
	}
	for (const file of all.filter((f) => f.endsWith('.css'))) {
		const css = readFileSync(join(dist, file), 'utf8');
		for (const m of css.matchAll(/(?:url\(\s*["']?|@import\s+["'])((?:https?:)?\/\/[^"')\s]+)/gi)) {
			problems.push(`${file}: loads ${m[1]} from another host`);
		}
	}
	return problems;
}

/** The variable names of an .env.example text: its `NAME=` and `#NAME=` lines. */
export function envExampleNames(text) {
	return [...text.matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
}

/**
 * Variables of .env.example missing from a configuration page. A slot variable (`WORKDIR_01_ALIAS`) counts when
 * the page names it, names its `WORKDIR_NN_` form, or lists its suffix in a code span.
 */
export function missingVariables(pageHtml, names) {
	const text = pageHtml.replace(/<[^>]+>/g, ' ');
	return names.filter((name) => {
		if (text.includes(name)) return false;
		const slot = /^WORKDIR_\d\d_(.+)$/.exec(name);
		return !(slot && (text.includes(`WORKDIR_NN_${slot[1]}`) || new RegExp(`<code[^>]*>${slot[1]}</code>`).test(pageHtml)));
	});
}

function main() {
	const site = fileURLToPath(new URL('..', import.meta.url));
	const dist = join(site, 'dist');
	const problems = checkLinks(dist);
	const names = envExampleNames(readFileSync(join(site, '..', '.env.example'), 'utf8'));
	if (names.length < 50) problems.push(`.env.example names only ${names.length} variables`);
	for (const page of ['configuration', 'reference/configuration', 'zh-cn/configuration', 'zh-cn/reference/configuration']) {
		const file = join(dist, page, 'index.html');
		if (!existsSync(file)) {
			problems.push(`dist/${page}/index.html is missing`);
			continue;
		}
		for (const name of missingVariables(readFileSync(file, 'utf8'), names)) {
			problems.push(`${name} of .env.example is not on /${page}/`);
		}
	}
	if (problems.length > 0) {
		console.error(`site: ${problems.length} problem(s) in dist/:\n  ${problems.join('\n  ')}`);
		process.exit(1);
	}
	const pages = files(dist).filter((f) => f.endsWith('.html')).length;
	console.log(`site: dist/ checked: ${pages} HTML pages, links, anchors and offline assets; ${names.length} .env.example variables on the configuration pages`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	main();
}
