/**
 * One signal aborted by either of two, whose listeners are removed once the work it was made for
 * has ended (`dispose`): a scope's signal lives as long as the scope, and would otherwise keep a
 * listener for every piece of work ever run under it.
 */
export interface LinkedSignal {
	readonly signal: AbortSignal;
	dispose(): void;
}

export function linkedSignal(first: AbortSignal, second: AbortSignal): LinkedSignal {
	if (first.aborted || second.aborted) {
		return { signal: first.aborted ? first : second, dispose: () => undefined };
	}
	const both = new AbortController();
	const fromFirst = (): void => both.abort(first.reason);
	const fromSecond = (): void => both.abort(second.reason);
	first.addEventListener('abort', fromFirst, { once: true });
	second.addEventListener('abort', fromSecond, { once: true });
	return {
		signal: both.signal,
		dispose: () => {
			first.removeEventListener('abort', fromFirst);
			second.removeEventListener('abort', fromSecond);
		},
	};
}
