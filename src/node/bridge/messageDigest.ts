/**
 * Digests of what a model request carried, as the bridge sends them and as VS Code computes them
 * for its prediction: each message's canonical JSON (`canonicalJson`), its length and a SHA-256 of
 * it; a part (system messages, payload) the same, from its pieces. Both sides use this module, so
 * equal content gives equal digests.
 */
import { createHash } from 'node:crypto';
import { canonicalJson, type JsonPiecesOptions, jsonPiecesSteps, type MessageDigest, type PartDigest } from '../../engine/live';
import { Pacer, type Steps } from '../../engine/steps';

/** 128 bits of SHA-256, base64url: collisions are not a concern for comparing two renderings. */
export function hashText(text: string): string {
	return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 22);
}

function roleOf(message: unknown): string {
	const role = typeof message === 'object' && message !== null ? (message as { role?: unknown }).role : undefined;
	return typeof role === 'string' ? role.slice(0, 64) : '?';
}

export function* messageDigestsSteps(messages: readonly unknown[]): Steps<MessageDigest[]> {
	const pacer = new Pacer();
	const digests: MessageDigest[] = [];
	for (const message of messages) {
		const text = canonicalJson(message);
		digests.push({ role: roleOf(message), chars: text.length, hash: hashText(text) });
		if (pacer.due(text.length)) {
			yield;
		}
	}
	return digests;
}

/** The digest of a whole value written out in pieces (see `jsonPiecesSteps`). */
export function* partDigestSteps(value: unknown, options: JsonPiecesOptions): Steps<PartDigest> {
	const hash = createHash('sha256');
	let chars = 0;
	yield* jsonPiecesSteps(value, (piece) => {
		hash.update(piece, 'utf8');
		chars += piece.length;
	}, options);
	return { chars, hash: hash.digest('base64url').slice(0, 22) };
}
