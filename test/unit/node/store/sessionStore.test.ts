import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, cpSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nullLogger } from '../../../../src/engine/ports';
import { resolveSessionLocations } from '../../../../src/node/sessions/sessionLocations';
import { SessionStore, type StoreChange } from '../../../../src/node/store/sessionStore';
import { EventLog } from '../../../support/eventLog';
import { piCondenseSessionsDir, realSessionsDir } from '../../../support/paths';
import { SessionBuilder } from '../../../support/sessionBuilder';
import { useTempDir } from '../../../support/tempDirs';
import { testScope } from '../../../support/testWork';
import type { WorkScope } from '../../../../src/work';

const basicDir = join(piCondenseSessionsDir, 'basic');
const BASIC_ID = '01a22b2a-f0d9-7c01-8264-6403bf89dbdf';

describe('SessionStore', function () {
	this.timeout(30_000);
	const temp = useTempDir('store');
	let store: SessionStore | undefined;
	let work: WorkScope | undefined;
	let log: EventLog<StoreChange>;

	afterEach(async () => {
		await work?.close();
		store = undefined;
		work = undefined;
	});

	function agentDir(): { dir: string; basic: string; real: string } {
		const dir = temp();
		const project = join(dir, 'sessions', '--project--');
		mkdirSync(project, { recursive: true });
		const basic = join(project, `basic_${BASIC_ID}.jsonl`);
		copyFileSync(join(basicDir, 'session.jsonl'), basic);
		cpSync(join(basicDir, `${BASIC_ID}-blobs`), join(project, `${BASIC_ID}-blobs`), { recursive: true });
		const other = join(dir, 'sessions', '--other--');
		mkdirSync(other);
		const real = join(other, 'real.jsonl');
		copyFileSync(join(realSessionsDir, 'pi-0.73.1-all-entry-types.synthetic.jsonl'), real);
		writeFileSync(join(project, 'notes.jsonl'), 'not a session\n');
		writeFileSync(join(dir, 'settings.json'), JSON.stringify({ theme: 'dark', contextPrune: JSON.parse(readFileSync(join(basicDir, 'contextPrune.json'), 'utf8')) }));
		return { dir, basic, real };
	}

	async function start(dir: string): Promise<SessionStore> {
		log = new EventLog();
		work = testScope('store');
		store = new SessionStore({ work, locate: () => resolveSessionLocations({ agentDir: dir, env: {}, homedir: dir }), logger: nullLogger, projectSettingsAllowed: () => true });
		store.onDidChange(log.push);
		await store.start();
		return store;
	}

	it('logs that a project\'s .pi/settings.json sends it to another session folder, and lists that folder', async () => {
		const { dir } = agentDir();
		const workspace = join(dir, 'workspace');
		const redirected = join(dir, 'redirected');
		mkdirSync(join(workspace, '.pi'), { recursive: true });
		mkdirSync(redirected);
		writeFileSync(join(workspace, '.pi', 'settings.json'), JSON.stringify({ sessionDir: redirected }));
		const flat = join(redirected, `basic_${BASIC_ID}.jsonl`);
		copyFileSync(join(basicDir, 'session.jsonl'), flat);
		const lines: string[] = [];
		const logger = { ...nullLogger, info: (message: string) => lines.push(message) };
		work = testScope('store');
		store = new SessionStore({ work, locate: () => resolveSessionLocations({ agentDir: dir, env: {}, homedir: dir, workspaceFolders: [workspace] }), logger, projectSettingsAllowed: () => true });
		await store.start();
		assert.deepEqual(store.rowsList().map((row) => row.file.path), [flat]);
		assert.ok(lines.includes(`sessions are read from ${redirected}, as sessionDir in the project's ${join(workspace, '.pi', 'settings.json')} says`), lines.join('\n'));
	});

	it('lists the sessions from their first lines only, with the settings, and reports what it searched', async () => {
		const { dir, basic, real } = agentDir();
		const s = await start(dir);
		assert.deepEqual(s.rowsList().map((row) => row.file.path).sort(), [basic, real].sort());
		assert.ok(s.rowsList().every((row) => row.summary === undefined && row.reclaim === undefined), 'nothing but headers at start');
		assert.equal(s.discovery.done, true);
		assert.deepEqual(s.discovery.unlisted.map((file) => file.path), [join(dir, 'sessions', '--project--', 'notes.jsonl')]);
		assert.equal(s.settings?.config.minBatchChars, 50);
		assert.ok(log.events.some((change) => change.kind === 'list'));
	});

	it('fills in summaries and reclaim figures when asked, in the background', async () => {
		const { dir, basic } = agentDir();
		const s = await start(dir);
		s.requestDetails([basic]);
		await s.idle();
		const row = s.row(basic);
		assert.equal(row?.summary?.summary.firstUserMessage?.startsWith('Explore the project'), true);
		assert.equal(row?.reclaim?.kind, 'measured');
		assert.ok(log.events.some((change) => change.kind === 'rows' && change.paths.includes(basic)));
	});

	it('skips the reclaim of files above the cap', async () => {
		const { dir, basic } = agentDir();
		log = new EventLog();
		work = testScope('store');
		store = new SessionStore({ work, locate: () => resolveSessionLocations({ agentDir: dir, env: {}, homedir: dir }), logger: nullLogger, reclaimMaxBytes: 100, projectSettingsAllowed: () => true });
		await store.start();
		store.requestDetails([basic]);
		await store.idle();
		assert.equal(store.row(basic)?.reclaim?.kind, 'too-large');
	});

	it('advances an open session from appended lines and reports the change', async () => {
		const { dir } = agentDir();
		const s = await start(dir);
		const path = join(dir, 'sessions', '--project--', 'live.jsonl');
		const builder = new SessionBuilder({ cwd: '/project' });
		builder.user('hello');
		writeFileSync(path, builder.text());
		await log.waitFor((change) => change.kind === 'list' && s.row(path) !== undefined, 'the new session listed');
		const session = await s.openSession(path);
		s.pinSession(path);
		const before = builder.text();
		builder.user('more');
		log.clear();
		appendFileSync(path, builder.text().slice(before.length));
		await log.waitFor((change) => change.kind === 'session' && change.path === path, 'the session change');
		assert.equal(session.model.entries.length, 2);
		assert.equal(await s.openSession(path), session, 'the pinned session stays the same object');
		unlinkSync(path);
		await log.waitFor((change) => change.kind === 'list' && s.row(path) === undefined, 'the removed session gone');
	});

	it('hears changes of settings.json, from us or from anyone, and forgets reclaim figures', async () => {
		const { dir, basic } = agentDir();
		const s = await start(dir);
		s.requestDetails([basic]);
		await s.idle();
		log.clear();
		const written = await s.updateSettings((raw) => ({ ...raw, enabled: false }));
		assert.equal(written.written.enabled, false);
		assert.equal(s.settings?.config.enabled, false);
		assert.equal(s.row(basic)?.reclaim, undefined);
		const settingsPath = join(dir, 'settings.json');
		const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as { contextPrune: Record<string, unknown> };
		assert.equal((settings as unknown as { theme: string }).theme, 'dark');
		writeFileSync(settingsPath, JSON.stringify({ ...settings, contextPrune: { ...settings.contextPrune, minBatchChars: 777 } }));
		await log.waitFor((change) => change.kind === 'settings' && change.settings.config.minBatchChars === 777, 'the external edit');
	});

	it('starts over on restart', async () => {
		const { dir, basic } = agentDir();
		const s = await start(dir);
		await s.restart();
		assert.ok(s.row(basic));
		assert.equal(s.rowsList().length, 2);
	});
});
