/**
 * The blob file name for a spilled result, inside `<sessionId>-blobs/`. Pure.
 *
 * pi-condense 2.0.0 names it after the tool-call id with every character outside `[A-Za-z0-9_-]`
 * replaced by `_` (so `../../x` becomes `______x.txt` and can never leave the folder). Providers
 * reuse ids, and two occurrences of one id must not share a file: when a record already on the
 * branch uses that name, the occurrence's result timestamp is added (`bash_23_1796020564484.txt`,
 * the scheme of pi-condense 2.6.0). The chosen name is stored in the record's `spillPath`, which
 * recovery reads first.
 */
import { sanitizeBlobId } from '../condense/recovery/blobFileName';

export function spillBlobName(toolCallId: string, resultTimestamp: number, namesInUse: ReadonlySet<string>): string {
	const plain = `${sanitizeBlobId(toolCallId)}.txt`;
	if (!namesInUse.has(plain)) {
		return plain;
	}
	return `${sanitizeBlobId(`${toolCallId}_${resultTimestamp}`)}.txt`;
}

/** Bare file name of a stored `spillPath` (either separator). */
export function blobNameOf(spillPath: string): string {
	return spillPath.split(/[\\/]/).pop() ?? spillPath;
}
