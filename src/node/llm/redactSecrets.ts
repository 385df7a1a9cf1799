/**
 * Removes known secret values (API keys, resolved header values) from text that may reach the
 * user or a log, such as a provider's error message that echoes the request. A provider may echo
 * a key encoded rather than as sent: URL-encoded (a query string), or in base64 (an
 * `Authorization: Basic` header, a token that embeds it, a JSON payload quoted back), at any offset
 * inside a longer base64 text. Each form is removed.
 */
const MIN_SECRET_LENGTH = 6;
/** Shorter cores of a base64 form could match unrelated text. */
const MIN_ENCODED_LENGTH = 8;

export function redactSecrets(text: string, secrets: readonly string[]): string {
	let result = text;
	for (const secret of secrets) {
		if (secret.length < MIN_SECRET_LENGTH) {
			continue;
		}
		for (const form of secretForms(secret)) {
			result = result.split(form).join('[redacted]');
		}
	}
	return result;
}

/** The secret as sent, URL-encoded, and the base64 (standard and URL-safe) runs that only it decides. */
function secretForms(secret: string): string[] {
	const forms = new Set([secret, encodeURIComponent(secret)]);
	const bytes = Buffer.from(secret, 'utf8');
	for (let offset = 0; offset < 3; offset++) {
		const core = base64Core(bytes, offset);
		if (core.length >= MIN_ENCODED_LENGTH) {
			forms.add(core);
			forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
		}
	}
	// Longest first: a shorter form inside a longer one must not leave the rest behind.
	return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * The base64 characters that depend on `bytes` alone when they start `offset` bytes into a 3-byte
 * group of a longer text: the characters mixing in neighbouring bytes, and padding, are left out.
 */
function base64Core(bytes: Buffer, offset: number): string {
	const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64').replace(/=+$/, '');
	// A leading byte of padding shares the first 2 characters (offset 1) or 3 (offset 2) with the secret.
	const skip = offset === 0 ? 0 : offset + 1;
	const total = offset + bytes.length;
	// A final incomplete group of r bytes has r + 1 characters; its last one also holds bits of whatever follows.
	const end = Math.floor(total / 3) * 4 + (total % 3);
	return encoded.slice(skip, end);
}
