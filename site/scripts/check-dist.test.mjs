// The site's checks can fail: each is run against a small dist/ and docs/ made here with the defect it must find.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { checkLinks, envExampleNames, missingVariables } from './check-dist.mjs';
import { toPage, translationProblems } from './prepare.mjs';

const root = mkdtempSync(join(tmpdir(), 'serverfs-site-check-'));
after(() => rmSync(root, { recursive: true, force: true }));

function site(name, pages) {
	const dist = join(root, name);
	for (const [path, html] of Object.entries(pages)) {
		mkdirSync(dirname(join(dist, path)), { recursive: true });
		writeFileSync(join(dist, path), html);
	}
	return dist;
}

test('a sound site has no problem', () => {
	const dist = site('sound', {
		'index.html': '<a href="/guide/">guide</a> <a href="/guide/#rules">rules</a> <link rel="icon" href="/favicon.svg">',
		'guide/index.html': '<h2 id="rules">Rules</h2><a href="../">home</a> <a href="https://example.org/">out</a>',
		'favicon.svg': '<svg/>',
	});
	assert.deepEqual(checkLinks(dist), []);
});

test('a broken internal link fails', () => {
	const dist = site('broken-link', { 'index.html': '<a href="/missing/">x</a>' });
	assert.deepEqual(checkLinks(dist), ['index.html: broken link /missing/']);
});

test('a link to a missing anchor fails', () => {
	const dist = site('broken-anchor', {
		'index.html': '<a href="/guide/#nowhere">x</a>',
		'guide/index.html': '<h2 id="rules">Rules</h2>',
	});
	assert.equal(checkLinks(dist).length, 1);
	assert.match(checkLinks(dist)[0], /broken anchor/);
});

test('a script, stylesheet or font from another host fails', () => {
	const dist = site('external', {
		'index.html': '<script src="https://cdn.example.org/x.js"></script><link rel="stylesheet" href="//fonts.example.org/a.css">',
		'a.css': '@font-face{src:url(https://fonts.example.org/f.woff2)}',
	});
	assert.equal(checkLinks(dist).length, 3);
});

test('a variable of .env.example missing from the configuration page fails', () => {
	const names = envExampleNames('# comment\nWORKDIR_01_ALIAS=\n#SERVERFS_PORT=8000\n#SERVERFS_NEW_THING=1\n');
	assert.deepEqual(names, ['WORKDIR_01_ALIAS', 'SERVERFS_PORT', 'SERVERFS_NEW_THING']);
	const page = '<td><code dir="auto">ALIAS</code></td><td><code>SERVERFS_PORT</code></td>';
	assert.deepEqual(missingVariables(page, names), ['SERVERFS_NEW_THING']);
	assert.deepEqual(missingVariables('<code>WORKDIR_NN_ALIAS</code> SERVERFS_PORT SERVERFS_NEW_THING', names), []);
});

test('a doc linking to a file that is not a page fails, and links between docs become site links', () => {
	const pages = [
		{ file: 'A.md', slug: 'index' },
		{ file: 'B.md', slug: 'b' },
	];
	const page = toPage('A.md', '# Title `x`\n\nSee [B](B.md#part) and [home](A.md).\n', pages);
	assert.match(page, /^---\ntitle: "Title x"\n---/);
	assert.match(page, /\[B\]\(\/b\/#part\) and \[home\]\(\/\)/);
	const code = toPage('A.md', '# T\n\nWrite `[x](B.md)`.\n\n```\n[y](B.md)\n```\n', pages);
	assert.match(code, /`\[x\]\(B\.md\)`/);
	assert.match(code, /\n\[y\]\(B\.md\)\n/);
	assert.throws(() => toPage('A.md', '# T\n\n[x](../compose.yml)\n', pages), /not a page of the site/);
	assert.throws(() => toPage('A.md', 'no title\n', pages), /must start with/);
});

test('an English page without its Chinese translation fails, and so does an orphan translation', () => {
	assert.deepEqual(translationProblems(['index', 'agents'], ['index', 'agents']), []);
	assert.deepEqual(translationProblems(['index', 'agents'], ['index']), [
		'missing translation: src/content/docs/zh-cn/agents.md (the zh-cn page of /agents/)',
	]);
	assert.deepEqual(translationProblems(['index'], ['index', 'old']), ['src/content/docs/zh-cn/old.md translates no English page']);
});
