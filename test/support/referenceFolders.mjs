// The reference sessions as tests and the harness use them (test/fixtures/README.md says where they came from).
//
// The repository stores each file once: test/fixtures/pi-condense-sessions/manifest.json lists the files of a
// folder that are byte for byte another folder's file (the same contextPrune.json, the same spilled log). The
// complete folders, each exactly as real pi-condense left it, are assembled under out/fixtures/ on first use,
// and an agent dir made from one of them looks like a user's (session under Pi's file name, blobs beside it,
// settings.json with the packages entry and contextPrune, the release's package.json where Pi installs it).
//
// Plain ESM without import.meta: the TypeScript tests (bundled to CommonJS) and the harness scripts share it.
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Real Pi sessions (no duplicates among them: read in place). */
export function realSessionsFolder(root) {
	return join(root, 'test', 'fixtures', 'real-sessions');
}

function storedFolder(root) {
	return join(root, 'test', 'fixtures', 'pi-condense-sessions');
}

function readManifest(root) {
	return JSON.parse(readFileSync(join(storedFolder(root), 'manifest.json'), 'utf8'));
}

function filesUnder(dir) {
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile())
		.map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** Writes `bytes` to `target` unless it already holds them; through a rename, so a reader never sees half a file. */
function place(bytes, target) {
	if (existsSync(target) && readFileSync(target).equals(bytes)) {
		return;
	}
	mkdirSync(dirname(target), { recursive: true });
	const temp = `${target}.${process.pid}.tmp`;
	writeFileSync(temp, bytes);
	renameSync(temp, target);
}

/**
 * The complete pi-condense reference folders (basic/, large-bulk/, …, each with its session.jsonl,
 * contextPrune.json, expected-context.json and blobs), assembled from the stored files under
 * out/fixtures/pi-condense-sessions. Idempotent and safe when several processes do it at once.
 */
export function assembleReferenceFolders(root) {
	const stored = storedFolder(root);
	const target = join(root, 'out', 'fixtures', 'pi-condense-sessions');
	for (const file of filesUnder(stored)) {
		if (file !== 'manifest.json') {
			place(readFileSync(join(stored, file)), join(target, file));
		}
	}
	for (const [copy, original] of Object.entries(readManifest(root).sameBytes)) {
		place(readFileSync(join(stored, original)), join(target, copy));
	}
	return target;
}

/** The pi-condense release that wrote a reference folder (`2.0.0`, `2.9.1`). */
export function referenceRelease(root, folder) {
	const release = readManifest(root).releases[folder];
	if (!release) {
		throw new Error(`no reference folder ${folder} in test/fixtures/pi-condense-sessions/manifest.json`);
	}
	return release;
}

/** Pi's session folder name for a project cwd (`/a/b` → `--a-b--`). */
export function sessionFolderName(cwd) {
	return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

function headerOf(text) {
	return JSON.parse(text.slice(0, text.indexOf('\n')));
}

/**
 * Copies a session file into `<sessionsDir>/<folder of its cwd>/` under Pi's name (`<timestamp>_<id>.jsonl`),
 * with the `-blobs` folders beside it when `withBlobs`. `cwd` rewrites the header's cwd (and so the folder);
 * `mtime` sets the file's modification time. Returns the copy's path, session id and cwd.
 */
export function copySession(source, sessionsDir, { cwd, mtime, withBlobs = false } = {}) {
	const text = readFileSync(source, 'utf8');
	const header = headerOf(text);
	const projectCwd = cwd ?? header.cwd;
	const folder = join(sessionsDir, sessionFolderName(projectCwd));
	mkdirSync(folder, { recursive: true });
	const target = join(folder, `${header.timestamp.replace(/[:.]/g, '-')}_${header.id}.jsonl`);
	if (cwd === undefined) {
		copyFileSync(source, target);
	} else {
		writeFileSync(target, JSON.stringify({ ...header, cwd }) + text.slice(text.indexOf('\n')));
	}
	if (mtime) {
		utimesSync(target, mtime, mtime);
	}
	if (withBlobs) {
		for (const entry of readdirSync(dirname(source), { withFileTypes: true })) {
			if (entry.isDirectory() && entry.name.endsWith('-blobs')) {
				cpSync(join(dirname(source), entry.name), join(folder, entry.name), { recursive: true });
			}
		}
	}
	return { path: target, id: header.id, cwd: projectCwd };
}

/**
 * Pi's user settings as someone running pi-condense `release` has them: `packages: ["npm:pi-condense"]`,
 * the `contextPrune` key, and the installed package's package.json at
 * `<agentDir>/npm/node_modules/pi-condense/`, where Pi installs user-scope npm packages. `other` keys
 * come first (Pi keeps its own settings there too).
 */
export function writeUserInstall(agentDir, { release, contextPrune, other = {} }) {
	mkdirSync(agentDir, { recursive: true });
	writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ ...other, packages: ['npm:pi-condense'], contextPrune }, null, 2));
	const installed = join(agentDir, 'npm', 'node_modules', 'pi-condense');
	mkdirSync(installed, { recursive: true });
	writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'pi-condense', version: release }, null, 2) + '\n');
}
