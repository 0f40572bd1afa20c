// The ServerFS documentation site. English pages are rendered from ../docs/*.md and the code's reference data by
// scripts/prepare.mjs; the simplified Chinese pages under src/content/docs/zh-cn/ are their translations. No
// analytics (and ASTRO_TELEMETRY_DISABLED=1 in package.json), no external fonts or scripts: dist/ works offline.
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';

const group = (label, zh, items) => ({ label, translations: { 'zh-CN': zh }, items });

export default defineConfig({
	integrations: [
		starlight({
			title: 'ServerFS',
			description: 'An MCP server that lets ChatGPT and any MCP client work in chosen directories of a Linux server.',
			defaultLocale: 'root',
			locales: {
				root: { label: 'English', lang: 'en' },
				'zh-cn': { label: '简体中文', lang: 'zh-CN' },
			},
			lastUpdated: false,
			pagination: true,
			sidebar: [
				group('Start', '开始', [{ slug: 'index', label: 'Overview', translations: { 'zh-CN': '概览' } }, { slug: 'getting-started' }]),
				group('Guides', '指南', [
					{ slug: 'architecture' },
					{ slug: 'configuration' },
					{ slug: 'file-tools' },
					{ slug: 'ingress', label: 'File ingress', translations: { 'zh-CN': '文件入口' } },
					{ slug: 'agents' },
					{ slug: 'deployment' },
					{ slug: 'security' },
					{ slug: 'operations' },
					{ slug: 'troubleshooting' },
				]),
				group('Reference', '参考', [{ slug: 'reference/configuration' }, { slug: 'reference/tools' }]),
				group('Contributing', '参与开发', [{ slug: 'development' }]),
			],
		}),
	],
});
