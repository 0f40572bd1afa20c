// The two generated reference pages, in English and simplified Chinese. The data is what the code publishes
// (SettingsReferenceExportTest, ToolReferenceExportTest); descriptions, meanings and schema texts are the code's
// own English words in both languages: they are what the loader and the model see.

const T = {
	en: {
		settingsTitle: 'Configuration reference',
		settingsIntro: (n, m) =>
			`Generated at build time from the settings catalogue (\`bootstrap/src/main/java/dev/serverfs/bootstrap/config/\`), ` +
			`so it lists exactly what the loader reads: ${n} variables and ${m} settings per workdir slot, each with its ` +
			`default, its parse style (which is also its start-up check) and its one line of meaning as \`.env.example\` ` +
			`shows it. The rules behind them (where values come from, parse styles, slot errors) are on the ` +
			`[Configuration](/configuration/) page.`,
		headers: ['variable', 'default', 'parse and check', 'meaning'],
		none: '–',
		fillIn: 'none: fill it in',
		slotNote:
			'Slots `01` to `16` take the same variables: `WORKDIR_NN_ALIAS` is `WORKDIR_01_ALIAS` … `WORKDIR_16_ALIAS`. ' +
			'A slot setting whose default is empty inherits the global value.',
		groups: {
			workdirs: 'Workdirs: slots 01..16',
			deployment: 'Docker Compose deployment (compose.yml)',
			server: 'MCP server (serverfs serve)',
			file_ingress: 'File ingress: ChatGPT file parameters',
			agent: 'Agent delegation',
			launcher: 'The launcher (./serverfs, its own environment only)',
			build: 'Build arguments of deploy/Dockerfile',
			reserved: 'Reference names ServerFS does not read',
		},
		toolsTitle: 'Tool reference',
		toolsIntro: (n) =>
			`Generated at build time from the tool definitions: the \`tools/list\` descriptors exactly as ServerFS ` +
			`publishes them with every surface enabled (${n} tools, in their order), their input schemas ` +
			`(\`adapters-mcp/src/main/resources/dev/serverfs/adapters/mcp/schemas/\`) and the error codes of ` +
			`\`ErrorCode\`. Which tools a client sees depends on the configuration: see [File tools](/file-tools/) and ` +
			`[Agent delegation](/agents/).`,
		surfaces: {
			filesystem: 'always',
			binary: 'when a workdir enables binary transfer',
			agent: 'when Agent delegation is enabled and a workdir has an Agent mode',
		},
		title: 'Title',
		surface: 'Surface',
		annotations: 'Annotations',
		meta: '`_meta` keys',
		params: ['parameter', 'type', 'required', 'constraints', 'description'],
		noParams: 'No parameters.',
		output: 'Structured output fields',
		yes: 'yes',
		no: 'no',
		codesTitle: 'Error codes',
		codesIntro:
			'A tool failure is a tool result whose text starts with one of these stable codes (`PATH_NOT_FOUND: docs:x.txt — …`). ' +
			'Codes are only ever added, never renamed or removed.',
	},
	'zh-cn': {
		settingsTitle: '配置参考',
		settingsIntro: (n, m) =>
			`本页在构建时由设置目录（\`bootstrap/src/main/java/dev/serverfs/bootstrap/config/\`）生成，因此与加载器读取的内容完全一致：` +
			`${n} 个变量，以及每个工作目录槽位的 ${m} 项设置。每一项列出默认值、解析方式（也就是启动时的检查）以及 \`.env.example\` 中的一行说明。` +
			`说明文字是代码中的英文原文。这些变量背后的规则（取值来源、解析方式、槽位错误）见[配置](/zh-cn/configuration/)页。`,
		headers: ['变量', '默认值', '解析与检查', '说明（代码原文）'],
		none: '–',
		fillIn: '无：必须填写',
		slotNote:
			'槽位 `01` 到 `16` 使用相同的变量：`WORKDIR_NN_ALIAS` 即 `WORKDIR_01_ALIAS` … `WORKDIR_16_ALIAS`。默认值为空的槽位设置继承全局值。',
		groups: {
			workdirs: '工作目录：槽位 01..16',
			deployment: 'Docker Compose 部署（compose.yml）',
			server: 'MCP 服务器（serverfs serve）',
			file_ingress: '文件入口：ChatGPT 文件参数',
			agent: 'Agent 委派',
			launcher: '启动器（./serverfs，只读取其自身环境）',
			build: 'deploy/Dockerfile 的构建参数',
			reserved: 'ServerFS 不读取的参考实现变量名',
		},
		toolsTitle: '工具参考',
		toolsIntro: (n) =>
			`本页在构建时由工具定义生成：ServerFS 在启用全部功能面时通过 \`tools/list\` 发布的描述（共 ${n} 个工具，按发布顺序）、` +
			`它们的输入模式（\`adapters-mcp/src/main/resources/dev/serverfs/adapters/mcp/schemas/\`）以及 \`ErrorCode\` 中的错误码。` +
			`工具描述与参数说明是服务器实际发送给模型的英文原文，因此不作翻译。客户端能看到哪些工具取决于配置，` +
			`见[文件工具](/zh-cn/file-tools/)和 [Agent 委派](/zh-cn/agents/)。`,
		surfaces: {
			filesystem: '始终提供',
			binary: '某个工作目录启用二进制传输时',
			agent: '启用 Agent 委派且某个工作目录设置了 Agent 模式时',
		},
		title: '标题',
		surface: '功能面',
		annotations: '注解',
		meta: '`_meta` 键',
		params: ['参数', '类型', '必填', '约束', '说明（原文）'],
		noParams: '无参数。',
		output: '结构化输出字段',
		yes: '是',
		no: '否',
		codesTitle: '错误码',
		codesIntro:
			'工具失败时返回一个工具结果，其文本以下列稳定错误码之一开头（`PATH_NOT_FOUND: docs:x.txt — …`）。错误码只会新增，绝不改名或删除。',
	},
};

/**
 * The code's own text as Markdown that shows it as written: characters Markdown would read as emphasis, links or
 * HTML are escaped outside code spans (a description's `workdir` stays code), and a table cell's pipes too.
 */
const prose = (text) =>
	String(text)
		.replace(/\n/g, ' ')
		.split(/(`[^`]*`)/)
		.map((part, i) => (i % 2 === 1 ? part : part.replace(/[\\*_[\]<>]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : `\\${c}`))))
		.join('');
const cell = (text) => prose(text).replace(/\|/g, '\\|');
const code = (text) => '`' + String(text).replace(/`/g, "'") + '`';

function frontmatter(title, note) {
	return `---\ntitle: ${JSON.stringify(title)}\n---\n\n<!-- Generated by site/scripts/reference.mjs from ${note}: never edit. -->\n\n`;
}

export function renderSettings(data, lang) {
	const t = T[lang];
	const out = [];
	out.push(frontmatter(t.settingsTitle, 'bootstrap/target/site-data/settings.json'));
	out.push(t.settingsIntro(data.global.length, data.slot.length), '');
	for (const group of data.groups) {
		const heading = t.groups[group.id];
		if (!heading) {
			throw new Error(`settings group ${group.id} has no heading in site/scripts/reference.mjs`);
		}
		const slot = group.id === 'workdirs';
		const rows = slot ? data.slot : data.global.filter((s) => s.group === group.id);
		if (rows.length === 0) continue;
		out.push(`## ${heading}`, '');
		if (slot) out.push(t.slotNote, '');
		out.push(`| ${t.headers.join(' | ')} |`, '|---|---|---|---|');
		for (const s of rows) {
			const name = slot ? `WORKDIR_NN_${s.name}` : s.name;
			const def = s.default !== '' ? code(s.default) : s.fillIn ? t.fillIn : t.none;
			out.push(`| ${code(name)} | ${def} | ${cell(s.style || t.none)} | ${cell(s.doc)} |`);
		}
		out.push('');
	}
	return out.join('\n');
}

function typeOf(schema) {
	if (Array.isArray(schema.type)) return schema.type.join(' or ');
	if (schema.type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}`;
	return schema.type ?? (schema.oneOf || schema.anyOf ? 'one of several shapes' : 'any');
}

function constraints(schema) {
	const parts = [];
	if (schema.enum) parts.push(`one of ${schema.enum.map((v) => code(v)).join(', ')}`);
	if (schema.default !== undefined) parts.push(`default ${code(JSON.stringify(schema.default))}`);
	for (const [key, label] of [
		['minimum', 'min'],
		['maximum', 'max'],
		['minLength', 'min length'],
		['maxLength', 'max length'],
		['minItems', 'min items'],
		['maxItems', 'max items'],
	]) {
		if (schema[key] !== undefined) parts.push(`${label} ${schema[key]}`);
	}
	if (schema.pattern) parts.push(`pattern ${code(schema.pattern)}`);
	if (schema.format) parts.push(`format ${schema.format}`);
	return parts.join(', ');
}

/** The rows of a schema's properties, one level of nested objects (`edits[].old_text`) included. */
function parameterRows(schema, t, prefix = '') {
	const rows = [];
	const required = new Set(schema.required ?? []);
	for (const [name, prop] of Object.entries(schema.properties ?? {})) {
		const full = prefix + name;
		rows.push(
			`| ${code(full)} | ${cell(typeOf(prop))} | ${required.has(name) ? t.yes : t.no} | ${cell(constraints(prop))} | ${cell(prop.description ?? '')} |`,
		);
		if (prefix === '') {
			if (prop.type === 'object' && prop.properties) rows.push(...parameterRows(prop, t, `${full}.`));
			if (prop.type === 'array' && prop.items?.properties) rows.push(...parameterRows(prop.items, t, `${full}[].`));
		}
	}
	return rows;
}

export function renderTools(data, lang) {
	const t = T[lang];
	const out = [];
	out.push(frontmatter(t.toolsTitle, 'adapters-mcp/target/site-data/tools.json'));
	out.push(t.toolsIntro(data.tools.length), '');
	for (const tool of data.tools) {
		const surface = t.surfaces[tool.surface];
		if (!surface) {
			throw new Error(`tool surface ${tool.surface} has no text in site/scripts/reference.mjs`);
		}
		out.push(`## ${tool.name}`, '');
		const annotations = Object.entries(tool.annotations ?? {})
			.map(([k, v]) => code(`${k}: ${v}`))
			.join(', ');
		out.push(`- **${t.title}:** ${tool.title}`);
		out.push(`- **${t.surface}:** ${code(tool.surface)} (${surface})`);
		out.push(`- **${t.annotations}:** ${annotations}`);
		if (tool._meta) out.push(`- **${t.meta}:** ${Object.keys(tool._meta).map(code).join(', ')}`);
		out.push('', `> ${prose(tool.description)}`, '');
		const rows = parameterRows(tool.inputSchema, t);
		if (rows.length === 0) {
			out.push(t.noParams, '');
		} else {
			out.push(`| ${t.params.join(' | ')} |`, '|---|---|---|---|---|', ...rows, '');
		}
		if (tool.outputSchema?.properties) {
			out.push(`**${t.output}:** ${Object.keys(tool.outputSchema.properties).map(code).join(', ')}`, '');
		}
	}
	out.push(`## ${t.codesTitle}`, '', t.codesIntro, '');
	let section = null;
	let line = [];
	const flush = () => {
		if (line.length > 0) out.push(line.join(' '), '');
		line = [];
	};
	for (const { code: c, section: s } of data.errorCodes) {
		if (s !== section) {
			flush();
			section = s;
			out.push(`### ${s}`, '');
		}
		line.push(code(c));
	}
	flush();
	return out.join('\n');
}
