/**
 * Writes pi-condense installs into a test agent dir or project the way Pi leaves them on a user's
 * machine: `pi install npm:pi-condense` makes `<agentDir>/npm/` an npm project whose
 * `node_modules/pi-condense/` holds the published package (package.json with `name`, `version` and
 * `pi.extensions: ["./index.ts"]`, and index.ts) and adds `"npm:pi-condense"` to `packages`; a
 * git source is a clone under `<agentDir>/git/<host>/<path>`; a checkout is the same folder anywhere.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes a package folder as pi-condense's release tarball unpacks (or as a checkout of it). */
export function writePackage(dir: string, version: string, name = 'pi-condense'): string {
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, 'package.json'), `${JSON.stringify({
		name,
		version,
		type: 'module',
		keywords: ['pi-package'],
		pi: { extensions: ['./index.ts'] },
		peerDependencies: { '@earendil-works/pi-coding-agent': '*' },
	}, null, 2)}\n`);
	writeFileSync(join(dir, 'index.ts'), 'export default function (pi: unknown) { void pi; }\n');
	return dir;
}

/** `<base>/npm/node_modules/<name>` with Pi's npm project around it; base is the agent dir or `<cwd>/.pi`. */
export function installNpm(base: string, version: string, name = 'pi-condense'): string {
	const root = join(base, 'npm');
	mkdirSync(root, { recursive: true });
	writeFileSync(join(root, 'package.json'), `${JSON.stringify({ name: 'pi-extensions', private: true }, null, 2)}\n`);
	writeFileSync(join(root, '.gitignore'), '*\n!.gitignore\n');
	return writePackage(join(root, 'node_modules', name), version, name);
}

/** A clone at `<base>/git/<host>/<path>`. */
export function cloneGit(base: string, hostAndPath: string, version: string, name = 'pi-condense'): string {
	const dir = writePackage(join(base, 'git', ...hostAndPath.split('/')), version, name);
	mkdirSync(join(dir, '.git'), { recursive: true });
	return dir;
}

export function writeJson(path: string, value: unknown): void {
	mkdirSync(join(path, '..'), { recursive: true });
	writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Pi's settings.json for a scope: `<agentDir>/settings.json` or `<cwd>/.pi/settings.json`. */
export function writeSettings(dir: string, settings: Record<string, unknown>): void {
	writeJson(join(dir, 'settings.json'), settings);
}
