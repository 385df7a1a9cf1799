/**
 * A "Pi Sessions" row is one line that VS Code cuts at its end, and the figures (age, messages,
 * reclaim) come after the title: at the default sidebar width a long first prompt hid them. So the
 * title alone is shortened (with …) until title, distinction and description fit a row `width`
 * average letters wide; what tells same-titled sessions apart and the figures are never cut. The
 * whole title stays in the tooltip and in what a screen reader says. Pure.
 */
import type { SessionLabel } from './sessionNames';

/** A title is never cut shorter than this (its first word or two still say what the session was). */
export const TITLE_MIN_WIDTH = 8;

// How wide a character is drawn in a proportional UI font, in average letters (`e`, `n`, `o`): VS Code's
// tree cuts by pixels, and a count of characters misjudged a row of capitals or of `i`s and `l`s by a third.
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;
const NARROW = /[ijlrtfI.,:;'!|()[\]{}\s·]/;
const BROAD = /[mwMW%@…]/;
const CAPITAL = /\p{Lu}/u;
/** A description is drawn at 0.9 of the label's size. */
const DESCRIPTION_SCALE = 0.9;
/** The space VS Code leaves between a label and its description. */
const GAP = 0.5;

function charWidth(char: string): number {
	return WIDE.test(char) ? 1.7 : NARROW.test(char) ? 0.5 : BROAD.test(char) ? 1.5 : CAPITAL.test(char) ? 1.15 : 1;
}

/** How wide `text` is drawn, in average letters (an East Asian character or an emoji about 1.7, an `i` 0.5). */
export function displayWidth(text: string): number {
	let width = 0;
	for (const char of text) {
		width += charWidth(char);
	}
	return width;
}

/** The first characters of `text` that are drawn in at most `width`, whole characters only. */
function takeWidth(text: string, width: number): string {
	let taken = '';
	let used = 0;
	for (const char of text) {
		used += charWidth(char);
		if (used > width) {
			break;
		}
		taken += char;
	}
	return taken;
}

/**
 * The row's label for a row `width` average letters wide whose description is `description`: the
 * whole label when it fits (or `width` is 0: never shortened), else the title cut to what is left
 * (at least `TITLE_MIN_WIDTH`) with `…`, then the distinction.
 */
export function fitSessionLabel(label: SessionLabel, description: string, width: number): string {
	const whole = `${label.title}${label.distinction}`;
	if (width <= 0) {
		return whole;
	}
	const described = description === '' ? 0 : GAP + displayWidth(description) * DESCRIPTION_SCALE;
	const room = Math.max(TITLE_MIN_WIDTH, width - described - displayWidth(label.distinction));
	if (displayWidth(label.title) <= room) {
		return whole;
	}
	return `${takeWidth(label.title, room - charWidth('…')).trimEnd()}…${label.distinction}`;
}
