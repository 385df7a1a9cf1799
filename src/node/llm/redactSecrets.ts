/**
 * Removes known secret values (API keys, resolved header values) from text that may reach the
 * user or a log, such as a provider's error message that echoes the request.
 */
const MIN_SECRET_LENGTH = 6;

export function redactSecrets(text: string, secrets: readonly string[]): string {
	let result = text;
	for (const secret of secrets) {
		if (secret.length >= MIN_SECRET_LENGTH) {
			result = result.split(secret).join('[redacted]');
		}
	}
	return result;
}
