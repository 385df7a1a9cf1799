/**
 * A "Pi Sessions" row is one line that VS Code cuts at its end, and the figures (age, messages,
 * reclaim) come after the title: at the default sidebar width a long first prompt hid them. So the
 * title alone is shortened (with …) until title, distinction and description fit `width`
 * characters; what tells same-titled sessions apart and the figures are never cut. The whole title
 * stays in the tooltip and in what a screen reader says. Pure.
 */
import type { SessionLabel } from './sessionNames';

/** A title is never cut shorter than this (its first words still say what the session was). */
export const TITLE_MIN_WIDTH = 8;

// Characters drawn about two columns wide: East Asian wide and full-width forms, and emoji.
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;

/** How many columns `text` takes: a character one, a wide one two. */
export function displayWidth(text: string): number {
	let width = 0;
	for (const char of text) {
		width += WIDE.test(char) ? 2 : 1;
	}
	return width;
}

/** The first characters of `text` that take at most `width` columns, whole characters only. */
function takeColumns(text: string, width: number): string {
	let taken = '';
	let used = 0;
	for (const char of text) {
		const size = WIDE.test(char) ? 2 : 1;
		if (used + size > width) {
			break;
		}
		taken += char;
		used += size;
	}
	return taken;
}

/**
 * The row's label for a row `width` characters wide whose description is `description`: the
 * whole label when it fits (or `width` is 0: never shortened), else the title cut to what is
 * left (at least `TITLE_MIN_WIDTH`) with `…`, then the distinction.
 */
export function fitSessionLabel(label: SessionLabel, description: string, width: number): string {
	const whole = `${label.title}${label.distinction}`;
	if (width <= 0) {
		return whole;
	}
	// VS Code leaves about a character's space between the label and its description.
	const room = Math.max(TITLE_MIN_WIDTH, width - displayWidth(description) - (description === '' ? 0 : 1) - displayWidth(label.distinction));
	if (displayWidth(label.title) <= room) {
		return whole;
	}
	return `${takeColumns(label.title, room - 1).trimEnd()}…${label.distinction}`;
}
