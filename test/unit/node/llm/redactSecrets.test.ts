/**
 * A provider's error message may echo the key in another form than sent. Each form must go,
 * wherever it sits in the text, and the rest of the message must stay readable.
 */
import assert from 'node:assert/strict';
import { redactSecrets } from '../../../../src/node/llm/redactSecrets';
import { Random } from '../../../support/random';

const KEY = 'sk-ant-api03-Zx9/Q+r_7tPq-VbN8w==';

describe('redactSecrets', () => {
	it('removes the key as sent and URL-encoded', () => {
		assert.equal(redactSecrets(`invalid x-api-key: ${KEY}`, [KEY]), 'invalid x-api-key: [redacted]');
		assert.equal(redactSecrets(`GET /v1?key=${encodeURIComponent(KEY)}&q=1 failed`, [KEY]), 'GET /v1?key=[redacted]&q=1 failed');
	});

	it('removes it base64-encoded at any offset inside a longer base64 text, standard or URL-safe', () => {
		const random = new Random(26);
		for (let trial = 0; trial < 300; trial++) {
			const before = Buffer.from(Array.from({ length: random.int(0, 9) }, () => random.int(0, 255)));
			const after = Buffer.from(Array.from({ length: random.int(0, 9) }, () => random.int(0, 255)));
			const standard = Buffer.concat([before, Buffer.from(KEY), after]).toString('base64');
			const urlSafe = Buffer.concat([before, Buffer.from(KEY), after]).toString('base64url');
			for (const encoded of [standard, urlSafe]) {
				const redacted = redactSecrets(`Authorization: Basic ${encoded} rejected`, [KEY]);
				assert.match(redacted, /\[redacted\]/, encoded);
				// What is left decodes to at most a few bytes of the key: never 4 of them in a row.
				const left = redacted.replace('Authorization: Basic ', '').replace(' rejected', '').split('[redacted]');
				for (const piece of left) {
					const decoded = Buffer.from(piece, piece === encoded ? 'base64' : 'base64url').toString('latin1');
					for (let i = 0; i + 4 <= KEY.length; i++) {
						assert.ok(!decoded.includes(KEY.slice(i, i + 4)), `${encoded} → ${redacted}`);
					}
				}
			}
		}
	});

	it('leaves short values and unrelated text alone', () => {
		assert.equal(redactSecrets('status 401 from api.example.com', ['abc', KEY]), 'status 401 from api.example.com');
	});
});
