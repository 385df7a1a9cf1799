#!/usr/bin/env node
// Renders the marketplace icon: media/icon.svg → media/icon.png, 128 × 128 (the size the Marketplace and VS Code's
// extension view ask for), with @resvg/resvg-js (a prebuilt renderer from npm: no browser, no system library).
// The PNG is committed; run this after changing the SVG. `node scripts/icon.mjs --check` fails when the committed
// PNG is not what the SVG renders to (the unit suite runs it, so the two cannot drift apart).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const svgPath = join(root, 'media', 'icon.svg');
const pngPath = join(root, 'media', 'icon.png');
export const ICON_SIZE = 128;

export function renderIcon() {
	const resvg = new Resvg(readFileSync(svgPath, 'utf8'), { fitTo: { mode: 'width', value: ICON_SIZE }, font: { loadSystemFonts: false } });
	const rendered = resvg.render();
	if (rendered.width !== ICON_SIZE || rendered.height !== ICON_SIZE) {
		throw new Error(`media/icon.svg rendered to ${rendered.width} × ${rendered.height}, not ${ICON_SIZE} × ${ICON_SIZE}: keep its viewBox square`);
	}
	return rendered.asPng();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const png = renderIcon();
	if (process.argv.includes('--check')) {
		if (!png.equals(readFileSync(pngPath))) {
			console.error('media/icon.png is not what media/icon.svg renders to: run node scripts/icon.mjs');
			process.exit(1);
		}
		console.log('media/icon.png matches media/icon.svg');
	} else {
		writeFileSync(pngPath, png);
		console.log(`media/icon.png: ${ICON_SIZE} × ${ICON_SIZE}, ${png.length} bytes`);
	}
}
