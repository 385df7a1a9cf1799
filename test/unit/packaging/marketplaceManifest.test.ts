/**
 * What the Marketplace reads of package.json: a 128 × 128 PNG icon that is what media/icon.svg renders
 * to (scripts/icon.mjs), where the code and the issues live, a gallery banner, and `extensionKind`
 * workspace (the extension reads and writes files where Pi's sessions are, so on a remote it runs there).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/paths';

interface Manifest {
	readonly icon?: string;
	readonly repository?: { readonly type: string; readonly url: string };
	readonly bugs?: { readonly url: string };
	readonly homepage?: string;
	readonly extensionKind?: readonly string[];
	readonly galleryBanner?: { readonly color: string; readonly theme: string };
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;

describe('marketplace manifest', () => {
	it('names a 128 × 128 PNG icon', () => {
		assert.equal(manifest.icon, 'media/icon.png');
		const png = readFileSync(join(repoRoot, manifest.icon));
		assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
		assert.equal(png.toString('latin1', 12, 16), 'IHDR');
		assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
	});

	it('the committed PNG is what scripts/icon.mjs renders from media/icon.svg', () => {
		const out = execFileSync(process.execPath, [join(repoRoot, 'scripts', 'icon.mjs'), '--check'], { encoding: 'utf8' });
		assert.match(out, /matches/);
	});

	it('says where the code, the issues and the home page are, runs as a workspace extension and has a banner', () => {
		assert.equal(manifest.repository?.type, 'git');
		assert.match(manifest.repository?.url ?? '', /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
		assert.equal(manifest.bugs?.url, manifest.repository?.url.replace(/\.git$/, '/issues'));
		assert.equal(manifest.homepage, manifest.repository?.url.replace(/\.git$/, '#readme'));
		assert.deepEqual(manifest.extensionKind, ['workspace']);
		assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
		assert.ok(['dark', 'light'].includes(manifest.galleryBanner?.theme ?? ''));
	});
});
