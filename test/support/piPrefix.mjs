// A real installed Pi laid out as `npm install -g` leaves it, for the tests and the VS Code harness: a global
// prefix with `lib/node_modules/<package>` (a link to this repository's devDependency of that Pi) and `bin/pi`
// (a link to its command). Put `<prefix>/bin` on a PATH and Pi Condense finds that Pi, as it finds a user's.
// Plain ESM, shared with the harness scripts (types: piPrefix.d.mts).
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The Pi packages this repository has as devDependencies, by version. */
export const INSTALLABLE_PIS = {
	'1.6.0': '@earendil-works/pi-coding-agent',
	'0.73.1': '@mariozechner/pi-coding-agent',
};

/** Lays out Pi `version` under `prefix` (an empty folder); the devDependency in `root`/node_modules is linked. */
export function installPiInPrefix(root, prefix, version) {
	const name = INSTALLABLE_PIS[version];
	const source = join(root, 'node_modules', ...name.split('/'));
	const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
	if (manifest.version !== version) {
		throw new Error(`node_modules holds ${name} ${manifest.version}, not ${version}`);
	}
	const packageDir = join(prefix, 'lib', 'node_modules', ...name.split('/'));
	mkdirSync(dirname(packageDir), { recursive: true });
	symlinkSync(source, packageDir, 'dir');
	const binDir = join(prefix, 'bin');
	mkdirSync(binDir, { recursive: true });
	symlinkSync(join(packageDir, manifest.bin.pi), join(binDir, 'pi'));
	return { binDir, packageDir, source };
}
