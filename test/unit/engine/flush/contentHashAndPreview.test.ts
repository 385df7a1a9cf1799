import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { headPreview, normalizeForHash, spillBlobName, toolResultHash } from '../../../../src/engine/flush';
import { sha1Hex } from '../../../../src/node/flush/sha1Hasher';
import { piCondenseSessionsDir } from '../../../support/paths';

describe('content hash', () => {
	it('normalizes CRLF, trailing spaces per line and the ends, and nothing else', () => {
		assert.equal(normalizeForHash('  a  \r\nb\t\r\n\n c \n\n'), 'a\nb\n\n c');
		assert.notEqual(normalizeForHash('a b'), normalizeForHash('a  b'));
		assert.notEqual(normalizeForHash('A'), normalizeForHash('a'));
	});

	it('matches the hash real pi-condense stored for the spilled log of the basic session', () => {
		const blob = readFileSync(join(piCondenseSessionsDir, 'basic', '01a22b2a-f0d9-7c01-8264-6403bf89dbdf-blobs', 'call_p1_t2_0.txt'), 'utf8');
		assert.equal(toolResultHash(sha1Hex, 'bash', blob), '1c45caf029d7efced423c052fad0116b430166c8');
		assert.equal(toolResultHash(sha1Hex, 'bash', `${blob.replace(/\n/g, '  \r\n')}\n\n`), '1c45caf029d7efced423c052fad0116b430166c8');
		assert.notEqual(toolResultHash(sha1Hex, 'read', blob), '1c45caf029d7efced423c052fad0116b430166c8');
	});
});

describe('spill head preview', () => {
	it('keeps a text that fits whole', () => {
		assert.equal(headPreview('short\ntext', 100), 'short\ntext');
	});

	it('cuts at the last line break within the byte cap', () => {
		assert.equal(headPreview('aaaa\nbbbb\ncccc', 12), 'aaaa\nbbbb');
	});

	it('never splits a character, and stays within the cap', () => {
		const text = `${'é'.repeat(10)}x`;
		const head = headPreview(text, 7);
		assert.equal(head, 'ééé');
		assert.ok(Buffer.byteLength(head) <= 7);
		assert.equal(headPreview('😀😀😀', 5), '😀');
	});

	it('names blobs after the sanitized occurrence key (the bare id without a result time)', () => {
		assert.equal(spillBlobName('../../x', undefined), '______x.txt');
		assert.equal(spillBlobName('bash:23', undefined), 'bash_23.txt');
		assert.equal(spillBlobName('bash_23', 1150), 'bash_23_1150.txt', '2.6.0+: the sanitized occurrence key');
	});
});
