import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveSessionLocations } from '../../../../src/node/sessions/sessionLocations';
import { useTempDir } from '../../../support/tempDirs';

describe('resolveSessionLocations', () => {
	const temp = useTempDir('locations');
	const home = '/home/me';

	function setup(globalSettings?: string, projects: Record<string, string | undefined> = {}): { agentDir: string; folders: string[] } {
		const base = mkdtempSync(join(temp(), 'case-'));
		const agentDir = join(base, 'agent');
		mkdirSync(agentDir, { recursive: true });
		if (globalSettings !== undefined) {
			writeFileSync(join(agentDir, 'settings.json'), globalSettings);
		}
		const folders: string[] = [];
		for (const [name, settings] of Object.entries(projects)) {
			const folder = join(base, name);
			mkdirSync(join(folder, '.pi'), { recursive: true });
			if (settings !== undefined) {
				writeFileSync(join(folder, '.pi', 'settings.json'), settings);
			}
			folders.push(folder);
		}
		return { agentDir, folders };
	}

	it('uses <agentDir>/sessions with one folder per project when nothing overrides it', async () => {
		const { agentDir } = setup();
		const result = await resolveSessionLocations({ agentDir, env: {}, homedir: home });
		assert.deepEqual(result.roots, [{ path: join(agentDir, 'sessions'), layout: 'per-project', source: 'default' }]);
		assert.deepEqual(result.notes, []);
	});

	it('uses $PI_CODING_AGENT_SESSION_DIR first, as a flat folder, with ~ expanded', async () => {
		const { agentDir } = setup('{"sessionDir":"/ignored"}');
		const result = await resolveSessionLocations({ agentDir, env: { PI_CODING_AGENT_SESSION_DIR: '~/sess' }, homedir: home });
		assert.deepEqual(result.roots, [{ path: '/home/me/sess', layout: 'flat', source: 'environment' }]);
	});

	it('uses sessionDir from the global settings as a flat folder', async () => {
		const { agentDir } = setup('{"theme":"dark","sessionDir":"~/pi-sessions"}');
		const result = await resolveSessionLocations({ agentDir, env: {}, homedir: home });
		assert.deepEqual(result.roots, [{ path: '/home/me/pi-sessions', layout: 'flat', source: 'global-settings' }]);
	});

	it('lets a project\'s .pi/settings.json win over the global one, resolving a relative path against the project', async () => {
		const { agentDir, folders } = setup('{"sessionDir":"/global/sessions"}', { a: '{"sessionDir":"local-sessions"}', b: undefined, c: '{"other":1}' });
		const result = await resolveSessionLocations({ agentDir, env: {}, homedir: home, workspaceFolders: folders });
		assert.deepEqual(result.roots, [
			{ path: join(folders[0]!, 'local-sessions'), layout: 'flat', source: 'project-settings' },
			{ path: '/global/sessions', layout: 'flat', source: 'global-settings' },
		]);
	});

	it('falls back to the default layout when a project clears sessionDir with an empty value', async () => {
		const { agentDir, folders } = setup('{"sessionDir":"/global/sessions"}', { a: '{"sessionDir":""}' });
		const result = await resolveSessionLocations({ agentDir, env: {}, homedir: home, workspaceFolders: folders });
		assert.deepEqual(result.roots, [{ path: join(agentDir, 'sessions'), layout: 'per-project', source: 'default' }]);
	});

	it('explains what it ignored: a relative path with no workspace folder, a non-string value, an invalid file', async () => {
		const relative = setup('{"sessionDir":"sessions-here"}');
		const first = await resolveSessionLocations({ agentDir: relative.agentDir, env: {}, homedir: home });
		assert.equal(first.roots[0]?.source, 'default');
		assert.match(first.notes[0] ?? '', /relative session folder "sessions-here"/);

		const numeric = await resolveSessionLocations({ agentDir: setup('{"sessionDir":5}').agentDir, env: {}, homedir: home });
		assert.match(numeric.notes[0] ?? '', /not a string/);

		const broken = setup('{"sessionDir": "/x",}');
		const third = await resolveSessionLocations({ agentDir: broken.agentDir, env: {}, homedir: home });
		assert.equal(third.roots[0]?.source, 'default');
		assert.match(third.notes[0] ?? '', /settings\.json is not valid JSON at line 1/);
	});

	it('agrees with Pi\'s SettingsManager.getSessionDir on the merged value', async () => {
		const { SettingsManager } = await import('@mariozechner/pi-coding-agent');
		const { homedir } = await import('node:os');
		for (const [globalValue, projectValue] of [['/g/s', undefined], ['/g/s', '/p/s'], ['~/tilde', undefined], [undefined, '~']] as const) {
			const projects = { proj: projectValue === undefined ? undefined : JSON.stringify({ sessionDir: projectValue }) };
			const { agentDir, folders } = setup(globalValue === undefined ? undefined : JSON.stringify({ sessionDir: globalValue }), projects);
			const pi = SettingsManager.create(folders[0]!, agentDir).getSessionDir();
			const ours = await resolveSessionLocations({ agentDir, env: {}, homedir: homedir(), workspaceFolders: folders });
			assert.equal(ours.roots[0]?.path, pi, `${globalValue} / ${projectValue}`);
		}
	});

	it('says which project settings send sessions elsewhere, so the log can tell', async () => {
		const { agentDir, folders } = setup(undefined, { a: '{"sessionDir":"local-sessions"}', b: undefined });
		const result = await resolveSessionLocations({ agentDir, env: {}, homedir: home, workspaceFolders: folders });
		assert.deepEqual(result.projectRedirects, [{ settingsFile: join(folders[0]!, '.pi', 'settings.json'), folder: join(folders[0]!, 'local-sessions') }]);
	});

	it('in an untrusted workspace, ignores a project\'s sessionDir, and says so', async () => {
		const { agentDir, folders } = setup('{"sessionDir":"/global/sessions"}', { a: '{"sessionDir":"/etc"}', b: undefined });
		const result = await resolveSessionLocations({ agentDir, env: {}, homedir: home, workspaceFolders: folders, trustProjectSettings: false });
		assert.deepEqual(result.roots, [{ path: '/global/sessions', layout: 'flat', source: 'global-settings' }]);
		assert.deepEqual(result.projectRedirects, []);
		assert.deepEqual(result.notes, [`Ignored sessionDir "/etc" in ${join(folders[0]!, '.pi', 'settings.json')}: this workspace is in restricted mode, so its project settings do not choose where sessions are read from. Trust the workspace to follow it.`]);
	});
});
