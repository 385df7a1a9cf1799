/**
 * Sizes of the shipped bundles, for the benchmark: the extension itself (loaded at
 * activation) and the pi-ai chunk (loaded on the first summarizer call).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface BundleSizes {
	/** Bytes of `dist/extension.js`, or undefined when it is not built. */
	readonly extensionBytes: number | undefined;
	/** Bytes of `dist/pi-ai.js`, or undefined when it is not built. */
	readonly piAiBytes: number | undefined;
}

export async function readBundleSizes(distDir: string): Promise<BundleSizes> {
	return {
		extensionBytes: await sizeOf(join(distDir, 'extension.js')),
		piAiBytes: await sizeOf(join(distDir, 'pi-ai.js')),
	};
}

export function formatBundleSizes(sizes: BundleSizes): string {
	const kib = (bytes: number | undefined): string => (bytes === undefined ? 'not built' : `${(bytes / 1024).toFixed(1)} KiB`);
	return `dist/extension.js ${kib(sizes.extensionBytes)}, dist/pi-ai.js ${kib(sizes.piAiBytes)} (loaded on first use)`;
}

async function sizeOf(path: string): Promise<number | undefined> {
	try {
		return (await stat(path)).size;
	} catch {
		return undefined;
	}
}
