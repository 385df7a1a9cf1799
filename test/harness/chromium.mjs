// Which Chromium the tests drive and how: one place for the harness (lib.mjs, setup.mjs) and the page tests
// (test/support/webviewPage.ts). Plain ESM without import.meta, so the TypeScript tests can bundle it.
import { existsSync } from 'node:fs';

const debianChromium = '/usr/bin/chromium';

/** `CHROMIUM_PATH` when set, else Debian's chromium. */
export function chromiumPath() {
	return process.env.CHROMIUM_PATH || debianChromium;
}

/** Whether the Chromium path was chosen by the user (then installing Debian's package would not help). */
export function chromiumPathIsCustom() {
	return Boolean(process.env.CHROMIUM_PATH) && process.env.CHROMIUM_PATH !== debianChromium;
}

/** Headless, no sandbox (CI runs as root), no calls of its own to the outside. */
export const chromiumFlags = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
	'--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** Why there is no Chromium at `path`, and what to do. */
export function noChromiumMessage(path, custom) {
	return custom
		? `no Chromium at CHROMIUM_PATH=${path}: point CHROMIUM_PATH at a Chromium binary, or unset it to use Debian's chromium (${debianChromium}; Debian/Ubuntu: sudo apt-get install -y chromium)`
		: `no Chromium at ${path}: the preview-page and VS Code tests drive headless Chromium. Install it (Debian/Ubuntu: sudo apt-get install -y chromium), or set CHROMIUM_PATH to a Chromium binary`;
}

/** Why Chromium cannot be used and what to do, or undefined when it is there. */
export function missingChromium() {
	return existsSync(chromiumPath()) ? undefined : noChromiumMessage(chromiumPath(), chromiumPathIsCustom());
}

/** Throws the message of missingChromium() when Chromium is not there. */
export function assertChromium() {
	const missing = missingChromium();
	if (missing) {
		throw new Error(missing);
	}
}
