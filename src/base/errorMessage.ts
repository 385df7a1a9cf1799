/**
 * The text of a thrown value, for messages: an Error's message, anything else as a string. Shared by
 * every layer and the page (no Node, no DOM).
 */
export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A thrown value as an Error, for callbacks that take one. */
export function toError(error: unknown): Error {
	return error instanceof Error ? error : new Error(String(error));
}
