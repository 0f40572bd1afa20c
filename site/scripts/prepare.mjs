// Renders the site's English content before `astro build`: every page of ../docs/*.md (the one copy of the
// project's documentation; links between them rewritten to site links) and the two reference pages generated from
// what the code publishes (the settings catalogue and the tools/list descriptors, in both languages). Then checks
// that every English page has its simplified Chinese translation under src/content/docs/zh-cn/ and that no
// translation is left without its English page. Any failure exits 1 with the reason, which fails the build.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSettings, renderTools } from './reference.mjs';

const site = fileURLToPath(new URL('..', import.meta.url));
const root = join(site, '..');
const content = join(site, 'src', 'content', 'docs');
const translations = join(content, 'zh-cn');

/** Every file of docs/ and the site page it becomes, in sidebar order. A doc missing here fails the build. */
export const PAGES = [
	{ file: 'OVERVIEW.md', slug: 'index' },
	{ file: 'GETTING-STARTED.md', slug: 'getting-started' },
	{ file: 'ARCHITECTURE.md', slug: 'architecture' },
	{ file: 'CONFIGURATION.md', slug: 'configuration' },
	{ file: 'FILE-TOOLS.md', slug: 'file-tools' },
	{ file: 'INGRESS.md', slug: 'ingress' },
	{ file: 'AGENTS.md', slug: 'agents' },
	{ file: 'DEPLOYMENT.md', slug: 'deployment' },
	{ file: 'SECURITY.md', slug: 'security' },
	{ file: 'OPERATIONS.md', slug: 'operations' },
	{ file: 'TROUBLESHOOTING.md', slug: 'troubleshooting' },
	{ file: 'DEVELOPMENT.md', slug: 'development' },
];

/** The generated pages: slug and renderer (language → Markdown). */
const GENERATED = [
	{ slug: 'reference/configuration', input: 'bootstrap/target/site-data/settings.json', render: renderSettings },
	{ slug: 'reference/tools', input: 'adapters-mcp/target/site-data/tools.json', render: renderTools },
];

const failures = [];

/** The site path of a slug in a language: `index` is the language's home. */
export function sitePath(slug, lang = 'en') {
	const prefix = lang === 'en' ? '/' : `/${lang}/`;
	return slug === 'index' ? prefix : `${prefix}${slug}/`;
}

/**
 * One doc as a Starlight page: its first `# ` line becomes the title, and every Markdown link to another doc
 * (`INGRESS.md`, `AGENTS.md#five-different-clocks`) becomes a site link. A relative link to anything else cannot
 * work on the site and is a failure.
 */
export function toPage(file, markdown, pages = PAGES) {
	const lines = markdown.split('\n');
	const first = lines.findIndex((l) => l.trim() !== '');
	const heading = /^# (.+)$/.exec(lines[first] ?? '');
	if (!heading) {
		throw new Error(`docs/${file} must start with a "# Title" line`);
	}
	const body = lines.slice(first + 1).join('\n');
	const bySlug = new Map(pages.map((p) => [p.file, p.slug]));
	const errors = [];
	// Code (fenced blocks and inline spans) is shown as written; only links outside it are rewritten.
	const rewrite = (text) => text.replace(/\]\(([^)\s]+)\)/g, (whole, target) => {
		if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/')) {
			return whole;
		}
		const [path, anchor] = target.split('#');
		const slug = bySlug.get(path);
		if (slug === undefined) {
			errors.push(`docs/${file} links to ${target}, which is not a page of the site`);
			return whole;
		}
		return `](${sitePath(slug)}${anchor ? `#${anchor}` : ''})`;
	});
	const linked = body
		.split(/(```[\s\S]*?```|`[^`\n]*`)/)
		.map((part, i) => (i % 2 === 1 ? part : rewrite(part)))
		.join('');
	if (errors.length > 0) {
		throw new Error(errors.join('\n'));
	}
	const title = heading[1].replace(/`/g, '');
	return `---\ntitle: ${JSON.stringify(title)}\n---\n\n<!-- Rendered from docs/${file} by site/scripts/prepare.mjs: edit that file, not this one. -->\n${linked}`;
}

/** The slugs of the hand-written translations (`zh-cn/foo.md` → `foo`). */
function translatedSlugs(dir, prefix = '') {
	const slugs = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		if (entry.isDirectory()) {
			if (!(prefix === '' && entry.name === 'reference')) {
				slugs.push(...translatedSlugs(join(dir, entry.name), `${prefix}${entry.name}/`));
			}
		} else if (/\.mdx?$/.test(entry.name)) {
			slugs.push(prefix + entry.name.replace(/\.mdx?$/, ''));
		}
	}
	return slugs;
}

/** A missing translation of an English page, or a translation of no English page. */
export function translationProblems(english, translated) {
	const problems = [];
	for (const slug of english) {
		if (!translated.includes(slug)) {
			problems.push(`missing translation: src/content/docs/zh-cn/${slug}.md (the zh-cn page of ${sitePath(slug)})`);
		}
	}
	for (const slug of translated) {
		if (!english.includes(slug)) {
			problems.push(`src/content/docs/zh-cn/${slug}.md translates no English page`);
		}
	}
	return problems;
}

function write(file, text) {
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, text);
}

function main() {
	// Start from nothing, so a page removed from docs/ leaves no stale copy behind.
	for (const entry of readdirSync(content)) {
		if (/\.mdx?$/.test(entry)) rmSync(join(content, entry));
	}
	rmSync(join(content, 'reference'), { recursive: true, force: true });
	rmSync(join(translations, 'reference'), { recursive: true, force: true });

	const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));
	for (const file of docs) {
		if (!PAGES.some((p) => p.file === file)) {
			failures.push(`docs/${file} is not on the site: add it to PAGES in site/scripts/prepare.mjs`);
		}
	}
	for (const { file, slug } of PAGES) {
		const source = join(root, 'docs', file);
		if (!existsSync(source)) {
			failures.push(`docs/${file} is missing (PAGES in site/scripts/prepare.mjs names it)`);
			continue;
		}
		try {
			write(join(content, `${slug}.md`), toPage(file, readFileSync(source, 'utf8')));
		} catch (e) {
			failures.push(e.message);
		}
	}
	for (const { slug, input, render } of GENERATED) {
		if (!existsSync(join(root, input))) {
			failures.push(`${input} is missing: run ./test.sh, or npm run data here`);
			continue;
		}
		const data = JSON.parse(readFileSync(join(root, input), 'utf8'));
		write(join(content, `${slug}.md`), render(data, 'en'));
		write(join(translations, `${slug}.md`), render(data, 'zh-cn'));
	}

	const english = [...PAGES.map((p) => p.slug), ...GENERATED.map((g) => g.slug)];
	const translated = [...translatedSlugs(translations), ...GENERATED.map((g) => g.slug)];
	failures.push(...translationProblems(english, translated));
	if (failures.length > 0) {
		console.error(`site: ${failures.length} problem(s):\n  ${failures.join('\n  ')}`);
		process.exit(1);
	}
	console.log(`site: ${english.length} pages in English and in simplified Chinese`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	main();
}
