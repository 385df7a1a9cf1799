// ESLint flat config. The layer rules keep the architecture honest (ARCHITECTURE.md):
//   src/base    small pure utilities below every layer and the webview: imports nothing of ours, no vscode, no Node
//   src/engine  pure: no vscode, no Node built-ins, no I/O libraries, no imports from work/, node/, host/ or shared/
//   src/work    the owner of running work (scopes, the slicer, latest-wins, queues, debounce, throttle): the engine's
//               steps and src/base only; everyone else imports it through src/work/index.ts, which does not export
//               the slicer, so no long pass runs without a scope's signal
//   src/node    Node I/O: never vscode, never host/
//   src/host    the only layer that imports vscode
//   src/shared  the protocol between the host and the page: engine types and src/base only
//   webview/    browser only: no vscode, no Node built-ins, only src/shared and src/base from the extension side
// and the host, the Node layer and the bridge run the engine's long passes only in slices (lint/noWholePass.mjs).
//   bridge/     the Pi extension we ship: Node, src/engine, src/work, src/node, src/shared and src/base; never vscode or src/host;
//               Pi's API only to observe (no call that sends, changes the model or tools, or writes the session)
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import stylistic from '@stylistic/eslint-plugin';
import { builtinModules } from 'node:module';
import { localRules } from './lint/noWholePass.mjs';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const ioLibraries = ['chokidar', 'proper-lockfile', 'playwright-core'];

const restrict = (paths, patterns) => ['error', { paths, patterns }];

// Outside the engine, each of its folders is imported through its index.ts (a file at its root, such as steps.ts, as is).
const engineThroughIndex = {
	group: ['**/engine/*/**'],
	message: 'Import the engine through its folders\' index.ts (src/engine/<folder>): export what you need there.',
};

// Outside src/work, the running-work layer is imported through its index: the slicer itself is not exported there.
const workThroughIndex = {
	group: ['**/work/*'],
	message: 'Import the running-work layer through src/work (its index.ts): long passes run through a WorkScope (scope.sliced), never a bare slicer.',
};

// VS Code functions that render their text as linked text or markdown (notifications, progress, quick input).
const RENDERING_CALLS = [
	'showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'withProgress',
	'showQuickPick', 'createQuickPick', 'showInputBox', 'createInputBox',
];

// What only src/host/ui/safeUi.ts may call: text from sessions must not become links, icons or markdown.
const SAFE_UI_SYNTAX = [
	{
		selector: `MemberExpression[object.property.name='window'][property.name=/^(${RENDERING_CALLS.join('|')})$/]`,
		message: 'Show text through src/host/ui/safeUi.ts, which makes session text unable to become a link.',
	},
	{
		selector: "MemberExpression[object.property.name='commands'][property.name='registerCommand']",
		message: 'Register commands through registerCommand of src/host/ui/safeUi.ts: a failing command\'s message is shown safely there.',
	},
	{
		selector: "NewExpression[callee.property.name='MarkdownString']",
		message: 'Build markdown with md`` (src/engine/views/safeText.ts) and markdownString() from src/host/ui/safeUi.ts.',
	},
];

// Settings reach the code one way: the ExtensionSettings the composition root hands on (src/host/extensionConfig.ts).
const SETTINGS_SYNTAX = {
	selector: "MemberExpression[property.name='getConfiguration']",
	message: 'Read piCondense.* through the ExtensionSettings handed to you (src/host/extensionConfig.ts): settings.current, settings.onDidChange.',
};

// pi-ai is megabytes of ESM: only its lazily loaded chunk may import its code; types are free.
const piAiEntries = [
	'@mariozechner/pi-ai', '@mariozechner/pi-ai/oauth',
	'@earendil-works/pi-ai', '@earendil-works/pi-ai/compat', '@earendil-works/pi-ai/providers/all', '@earendil-works/pi-ai/lazy-oauth', '@earendil-works/pi-ai/oauth',
];
const lazyPiAi = piAiEntries.map((name) => ({
	name,
	allowTypeImports: true,
	message: 'pi-ai is loaded on first use (the installed Pi\'s or the bundled one): get it from src/node/llm/piAiLoader (only piAiModule.ts imports it).',
}));

export default tseslint.config(
	{
		ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '.bench/**', '.stress/**', 'scripts/**', 'test/harness/**', '**/*.mjs', '**/*.js'],
	},
	js.configs.recommended,
	...tseslint.configs.recommendedTypeChecked,
	{
		languageOptions: {
			parserOptions: {
				projectService: {
					allowDefaultProject: [],
				},
				tsconfigRootDir: import.meta.dirname,
			},
		},
		plugins: { '@stylistic': stylistic },
		rules: {
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/no-explicit-any': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'eqeqeq': ['error', 'always'],
			'curly': ['error', 'all'],
			'no-console': 'error',
			'@stylistic/indent': ['error', 'tab', { SwitchCase: 1 }],
			'@stylistic/quotes': ['error', 'single', { avoidEscape: true }],
			'@stylistic/semi': ['error', 'always'],
		},
	},
	{
		files: ['src/engine/**/*.ts'],
		rules: {
			'no-restricted-imports': restrict(
				[
					{ name: 'vscode', message: 'src/engine is host-agnostic: vscode belongs in src/host.' },
					...piAiEntries.map((name) => ({ name, allowTypeImports: true, message: 'src/engine is pure: call the Summarizer port.' })),
					...[...ioLibraries, ...nodeBuiltins].map((name) => ({ name, message: 'src/engine is pure: I/O belongs in src/node.' })),
				],
				[
					{ group: ['**/host/**', '**/node/**', '**/work/**', '**/host', '**/node', '**/work'], message: 'src/engine must not depend on outer layers.' },
					{ group: ['**/shared/**', '**/shared'], message: 'src/shared is the host–page protocol, above the engine: shared utilities live in src/base.' },
				],
			),
			'no-restricted-globals': ['error',
				{ name: 'process', message: 'src/engine is pure: pass values in.' },
				{ name: 'require', message: 'src/engine is pure.' },
				{ name: 'fetch', message: 'src/engine is pure: no network.' },
				{ name: 'Buffer', message: 'src/engine is pure: use TextEncoder or pass values in.' },
			],
		},
	},
	{
		files: ['src/work/**/*.ts'],
		rules: {
			'no-restricted-imports': restrict(
				[{ name: 'vscode', message: 'src/work is below the host: no vscode.' }, ...ioLibraries.map((name) => ({ name, message: 'src/work owns running work; I/O belongs in src/node.' }))],
				[
					{ group: ['**/host/**', '**/node/**', '**/shared/**', '**/cli/**', '**/webview/**', '**/bridge/**', '**/host', '**/node', '**/shared', '**/cli'], message: 'src/work sits on the engine: it imports only src/engine/steps and src/base.' },
					{ group: ['**/engine/**', '!**/engine/steps'], message: 'src/work needs only the engine\'s steps (src/engine/steps.ts).' },
				],
			),
		},
	},
	{
		files: ['src/node/**/*.ts', 'src/cli.ts', 'src/cli/**/*.ts'],
		rules: {
			'no-restricted-imports': restrict(
				[{ name: 'vscode', message: 'Only src/host may import vscode.' }, ...lazyPiAi],
				[{ group: ['**/host/**', '**/host'], message: 'src/node must not depend on src/host.' }, workThroughIndex, engineThroughIndex],
			),
		},
	},
	{
		// The extension host is shared with every other extension, and the bridge runs inside Pi's own process: a long pass
		// runs in slices there, and in the Node layer that serves them.
		files: ['src/host/**/*.ts', 'src/extension.ts', 'src/node/**/*.ts', 'src/work/**/*.ts', 'bridge/**/*.ts'],
		plugins: { local: localRules },
		rules: { 'local/no-whole-pass': 'error' },
	},
	{
		// The one place that drains a long pass: a slice at a time.
		files: ['src/work/slicer.ts'],
		rules: { 'local/no-whole-pass': 'off' },
	},
	{
		// The session index's extraction thread: nothing else runs on it, so its passes run at once.
		files: ['src/node/history/worker/extractionWorkerMain.ts'],
		rules: { 'local/no-whole-pass': 'off' },
	},
	{
		// Delays, debounces, throttles and polls are a scope's (src/work): closing it clears them. A bare timer is
		// only for the deadline or pause of one call, in the files below.
		files: ['src/host/**/*.ts', 'src/node/**/*.ts', 'src/extension.ts'],
		ignores: [
			'src/node/llm/callWatchdog.ts', // a model call's idle and total deadlines
			'src/node/llm/configValue.ts', // the deadline of a command that prints a key
			'src/node/llm/worker/piAiWorker.ts', // the worker thread stops when idle
			'src/node/llm/authFileLock.ts', // the pause between two tries of Pi's lock
			'src/node/history/indexLock.ts', // the pause between two tries of the index's lock
			'src/node/settings/updatePruneSettings.ts', // the pause while a write settles
			'src/node/write/sessionWriter.ts', // the pause between two tries of a write
			'src/node/bridge/bridgeClient.ts', // the deadlines of a connection and of its calls
		],
		rules: {
			'no-restricted-globals': ['error', ...['setTimeout', 'setInterval'].map((name) => ({
				name,
				message: 'A delay, debounce, throttle or poll belongs to a scope (src/work: scope.timeout, scope.debounce, scope.throttle, scope.interval), so that closing it stops it.',
			}))],
		},
	},
	{
		// The one module that imports pi-ai's code: the entry of the lazily loaded dist/pi-ai.js chunk.
		files: ['src/node/llm/piAiModule.ts'],
		rules: {
			'no-restricted-imports': restrict(
				[{ name: 'vscode', message: 'Only src/host may import vscode.' }],
				[{ group: ['**/host/**', '**/host'], message: 'src/node must not depend on src/host.' }, workThroughIndex, engineThroughIndex],
			),
		},
	},
	{
		files: ['src/host/**/*.ts', 'src/extension.ts'],
		rules: {
			'no-restricted-imports': restrict(lazyPiAi, [workThroughIndex, engineThroughIndex]),
			// Text from sessions must not become links, icons or markdown: only src/host/ui/safeUi.ts calls these.
			'no-restricted-syntax': ['error', ...SAFE_UI_SYNTAX, SETTINGS_SYNTAX],
		},
	},
	{
		files: ['src/host/ui/safeUi.ts'],
		rules: { 'no-restricted-syntax': ['error', SETTINGS_SYNTAX] },
	},
	{
		// The one place that reads piCondense.* (ExtensionSettings).
		files: ['src/host/extensionConfig.ts'],
		rules: { 'no-restricted-syntax': ['error', ...SAFE_UI_SYNTAX] },
	},
	{
		files: ['src/base/**/*.ts'],
		rules: {
			'no-restricted-imports': restrict(
				[
					{ name: 'vscode', message: 'src/base is below every layer and used by the webview: no vscode.' },
					...[...ioLibraries, ...nodeBuiltins].map((name) => ({ name, message: 'src/base is used by the webview: no Node.' })),
				],
				[{ group: ['**/engine/**', '**/host/**', '**/node/**', '**/shared/**', '**/webview/**', '**/cli/**', '**/work/**'], message: 'src/base is the lowest layer: it imports nothing of ours.' }],
			),
		},
	},
	{
		files: ['src/shared/**/*.ts'],
		rules: {
			'no-restricted-imports': restrict(
				[
					{ name: 'vscode', message: 'src/shared is used by the webview: no vscode.' },
					...[...ioLibraries, ...nodeBuiltins].map((name) => ({ name, message: 'src/shared is used by the webview: no Node.' })),
				],
				[{ group: ['**/host/**', '**/node/**', '**/work/**', '**/host', '**/node', '**/work'], message: 'src/shared may only use engine types.' }, engineThroughIndex],
			),
		},
	},
	{
		files: ['webview/**/*.ts'],
		rules: {
			'no-restricted-imports': restrict(
				[
					{ name: 'vscode', message: 'The webview runs in a browser: talk to the host through src/shared/protocol.ts.' },
					...[...ioLibraries, ...nodeBuiltins].map((name) => ({ name, message: 'The webview runs in a browser.' })),
				],
				[{ group: ['**/src/host/**', '**/src/node/**', '**/src/work/**', '**/src/engine/**', '!**/src/engine/**/types', '**/src/extension'], message: 'The webview may only import src/shared and src/base from the extension side.' }],
			),
		},
	},
	{
		files: ['bridge/**/*.ts'],
		rules: {
			'no-restricted-imports': restrict(
				[
					{ name: 'vscode', message: 'The bridge runs inside Pi.' },
					...piAiEntries.map((name) => ({ name, message: 'The bridge observes Pi: it needs no model library.' })),
					...['@earendil-works/pi-coding-agent', '@mariozechner/pi-coding-agent'].map((name) => ({ name, allowTypeImports: true, message: 'Only types from Pi: the bundle must load in any Pi (bridge/piFacts.ts asks for the version at run time).' })),
				],
				[{ group: ['**/host/**', '**/host', '**/extension'], message: 'The bridge runs inside Pi: no VS Code code.' }, workThroughIndex, engineThroughIndex],
			),
			// What the bridge must never do to the Pi it runs in (issue 31): send text to the model, change the
			// model, the thinking level or the tools, or write to the session.
			'no-restricted-syntax': ['error', {
				selector: 'MemberExpression[property.name=/^(sendUserMessage|sendMessage|setModel|setThinkingLevel|setActiveTools|registerTool|registerProvider|appendEntry|setLabel|setSessionName|exec|compact|abort|shutdown)$/]',
				message: 'The bridge only observes Pi and fills its editor: this call is not allowed.',
			}],
		},
	},
	{
		files: ['test/**/*.ts'],
		rules: {
			'no-console': 'off',
			'@typescript-eslint/no-unsafe-assignment': 'off',
			'@typescript-eslint/no-unsafe-member-access': 'off',
			'@typescript-eslint/no-unsafe-call': 'off',
			'@typescript-eslint/no-unsafe-argument': 'off',
			'@typescript-eslint/no-unsafe-return': 'off',
		},
	},
);
