/**
 * The pi-ai chunk is a bundle of its own: reported separately, and none of it is in the extension.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatBundleSizes, readBundleSizes } from '../../bench/bundleSizes';

const distDir = join(process.cwd(), 'dist');

describe('bundle sizes', () => {
	it('reports extension.js and pi-ai.js separately, as the build does', async () => {
		const sizes = await readBundleSizes(distDir);
		assert.ok(sizes.extensionBytes !== undefined && sizes.piAiBytes !== undefined);
		assert.ok(sizes.piAiBytes > sizes.extensionBytes);
		const fromBuild = JSON.parse(await readFile(join(distDir, 'bundle-sizes.json'), 'utf8')) as Record<string, number>;
		assert.equal(fromBuild['dist/pi-ai.js'], sizes.piAiBytes);
		assert.equal(fromBuild['dist/extension.js'], sizes.extensionBytes);
		assert.match(formatBundleSizes(sizes), /^dist\/extension\.js [\d.]+ KiB, dist\/pi-ai\.js [\d.]+ KiB/);
	});

	it('keeps pi-ai out of dist/extension.js', async () => {
		const extension = await readFile(join(distDir, 'extension.js'), 'utf8');
		const chunk = await readFile(join(distDir, 'pi-ai.js'), 'utf8');
		// pi-ai's own message, and a model of its catalog.
		for (const piAiMarker of ['Provider is not configured: ', '"claude-sonnet-5"']) {
			assert.ok(chunk.includes(piAiMarker), piAiMarker);
			assert.ok(!extension.includes(piAiMarker), piAiMarker);
		}
	});
});
