/**
 * The user's explicit choice of release: the `piCondense.release` VS Code setting or the CLI's
 * `--release` flag. `auto` (the default) follows the copy of pi-condense Pi loads. Pure.
 */
import { KNOWN_RELEASES, type ReleaseVersion } from './releases';

export type ReleaseChoice = 'auto' | ReleaseVersion;

/** Where an explicit release came from, for the texts that say why it is followed. */
export type OverrideOrigin = 'setting' | 'flag';

export interface ReleaseOverride {
	readonly release: ReleaseVersion;
	readonly origin: OverrideOrigin;
}

export type ParsedReleaseChoice =
	| { readonly ok: true; readonly choice: ReleaseChoice }
	| { readonly ok: false; readonly message: string };

/** Accepts `auto` or a known release (`2.4.0`, also `v2.4.0`); anything else says what is accepted. */
export function parseReleaseChoice(value: unknown): ParsedReleaseChoice {
	const text = typeof value === 'string' ? value.trim().replace(/^v(?=\d)/, '') : undefined;
	if (text === 'auto' || text === '') {
		return { ok: true, choice: 'auto' };
	}
	if (text !== undefined && (KNOWN_RELEASES as readonly string[]).includes(text)) {
		return { ok: true, choice: text as ReleaseVersion };
	}
	return { ok: false, message: `unknown pi-condense release ${JSON.stringify(value)}: use auto or one of ${KNOWN_RELEASES.join(', ')}` };
}

/** The override a choice makes, or undefined for `auto`. */
export function overrideOf(choice: ReleaseChoice, origin: OverrideOrigin): ReleaseOverride | undefined {
	return choice === 'auto' ? undefined : { release: choice, origin };
}
