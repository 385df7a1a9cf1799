/**
 * pi-condense's `protectedPaths` glob dialect, compiled to a matcher. Pure.
 *
 * Written by hand on purpose: compatibility with pi-condense must be exact, and generic glob
 * libraries differ from it (brace sets, character classes, dot-file rules, case folding). The
 * dialect, as pi-condense translates it into a regular expression:
 * - `*` is any run of characters other than `/`, `?` one character other than `/` (one UTF-16 code
 *   unit, line breaks included);
 * - `**` followed by `/` is any run of whole directories, none included (`(?:[^/]*\/)*`), so
 *   `**\/SKILL.md` matches `SKILL.md`;
 * - any other `**` is any run of characters except line breaks (a regex `.*` without the `s` flag):
 *   it crosses `/`;
 * - every other character is literal; `\` in the tested path is read as `/`; matching is
 *   case-sensitive and anchored at both ends.
 *
 * The path comes from a session (an attacker may write it), so the matcher is not a backtracking
 * regular expression, which is quadratic or worse on such paths: it follows every way the pattern
 * can be at once (an NFA), one step per path character, in O(path length × pattern length).
 */

export type PathMatcher = (path: string) => boolean;

/** What each pattern token matches; the pattern compiles to one kind (and one code) per token. */
const enum Kind {
	/** One given character. */
	Literal,
	/** `?`: one character other than `/`. */
	One,
	/** `*`: a run of characters other than `/`. */
	Segment,
	/** `**` not followed by `/`: a run of characters other than line breaks. */
	Line,
	/** `**` followed by `/`: a run of whole directories. */
	Directories,
}

interface CompiledGlob {
	readonly kinds: Uint8Array;
	/** The character of each literal token (a UTF-16 code unit). */
	readonly codes: Uint16Array;
	/**
	 * The state lists and stamps, made once per pattern and reused by every match (a match never
	 * runs inside another): a flush checks every tool call against every pattern, and three typed
	 * arrays per check were most of its cost.
	 */
	readonly scratch: { current: Int32Array; next: Int32Array; readonly stamps: Uint32Array; step: number };
}

const SLASH = 0x2f;
const BACKSLASH = 0x5c;

export function compileGlob(pattern: string): PathMatcher {
	const glob = tokenize(pattern);
	return (path) => matches(glob, path);
}

function tokenize(pattern: string): CompiledGlob {
	const kinds: Kind[] = [];
	const codes: number[] = [];
	for (let i = 0; i < pattern.length; i++) {
		const char = pattern.charAt(i);
		let kind = Kind.Literal;
		if (char === '*' && pattern.charAt(i + 1) === '*') {
			kind = pattern.charAt(i + 2) === '/' ? Kind.Directories : Kind.Line;
			i += kind === Kind.Directories ? 2 : 1;
		} else if (char === '*') {
			kind = Kind.Segment;
		} else if (char === '?') {
			kind = Kind.One;
		}
		kinds.push(kind);
		codes.push(kind === Kind.Literal ? pattern.charCodeAt(i) : 0);
	}
	const states = 2 * kinds.length + 1;
	const scratch = { current: new Int32Array(states), next: new Int32Array(states), stamps: new Uint32Array(states), step: 0 };
	return { kinds: Uint8Array.from(kinds), codes: Uint16Array.from(codes), scratch };
}

/**
 * The NFA's states: `i` (0…n) is "before token i", n accepts; a `Directories` token has a second
 * state, `n + 1 + i`: inside a directory name, waiting for its `/`. A repeating token may also match
 * nothing, so entering the state before one enters the next state too. The live states of each
 * step are kept as a list, with a per-step stamp saying which are in it.
 */
function matches(glob: CompiledGlob, path: string): boolean {
	const { kinds, codes, scratch } = glob;
	const n = kinds.length;
	let { current, next } = scratch;
	const { stamps } = scratch;
	// Stamps left by earlier matches are all below this match's first step.
	if (scratch.step + path.length + 2 >= 0xffffffff) {
		stamps.fill(0);
		scratch.step = 0;
	}
	let step = scratch.step + 1;
	const enter = (list: Int32Array, size: number, state: number): number => {
		for (let s = state; stamps[s] !== step; s++) {
			stamps[s] = step;
			list[size++] = s;
			if (s >= n || !repeats(kinds[s] as Kind)) {
				break;
			}
		}
		return size;
	};
	let live = enter(current, 0, 0);
	for (let p = 0; p < path.length && live > 0; p++) {
		const raw = path.charCodeAt(p);
		const code = raw === BACKSLASH ? SLASH : raw;
		step++;
		let size = 0;
		for (let k = 0; k < live; k++) {
			const state = current[k] as number;
			if (state > n) {
				size = enter(next, size, code === SLASH ? state - n - 1 : state);
				continue;
			}
			switch (state === n ? undefined : kinds[state] as Kind) {
				case Kind.Literal:
					size = code === codes[state] ? enter(next, size, state + 1) : size;
					break;
				case Kind.One:
					size = code !== SLASH ? enter(next, size, state + 1) : size;
					break;
				case Kind.Segment:
					size = code !== SLASH ? enter(next, size, state) : size;
					break;
				case Kind.Line:
					size = isLineTerminator(code) ? size : enter(next, size, state);
					break;
				case Kind.Directories:
					size = enter(next, size, code === SLASH ? state : n + 1 + state);
					break;
				default:
					break; // the accepting state takes no more characters
			}
		}
		[current, next] = [next, current];
		live = size;
	}
	scratch.step = step;
	for (let k = 0; k < live; k++) {
		if (current[k] === n) {
			return true;
		}
	}
	return false;
}

function repeats(kind: Kind): boolean {
	return kind === Kind.Segment || kind === Kind.Line || kind === Kind.Directories;
}

/** What a regular expression's `.` does not match without the `s` flag. */
function isLineTerminator(code: number): boolean {
	return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}
