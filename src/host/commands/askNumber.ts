/**
 * A number setting asked as pi-condense's settings rows ask it: its presets (the current one
 * marked), then "Other value…" opening an input box checked by the setting's own parser (at once
 * when it has no presets). Resolves with the text to parse, or undefined when dismissed.
 */
import { showInputBox, showQuickPick } from '../ui/safeUi';

export interface NumberQuestion {
	readonly title: string;
	readonly placeHolder?: string;
	/** Shown by the input box of "Other value…". */
	readonly prompt?: string;
	readonly presets: ReadonlyArray<{ readonly label: string; readonly value: number }>;
	/** The value now; null for a setting that is off (the input box then shows `off`). */
	readonly current: number | null;
	/** The setting's parser: its message is shown while the typed value is refused. */
	readonly parse: (text: string) => { readonly ok: true } | { readonly ok: false; readonly message: string };
}

export async function askNumber(question: NumberQuestion): Promise<string | undefined> {
	const current = question.current === null ? 'off' : String(question.current);
	if (question.presets.length > 0) {
		const presets = question.presets.map((preset) => ({ label: preset.label, description: String(preset.value) === current ? 'current' : undefined, value: String(preset.value) }));
		const custom = { label: 'Other value…', description: presets.some((p) => p.value === current) ? undefined : `current: ${current}`, value: '' };
		const picked = await showQuickPick([...presets, custom], { title: question.title, ...(question.placeHolder === undefined ? {} : { placeHolder: question.placeHolder }) });
		if (!picked || picked.value !== '') {
			return picked?.value;
		}
	}
	return showInputBox({
		title: question.title,
		...(question.prompt === undefined ? {} : { prompt: question.prompt }),
		value: current,
		validateInput: (value) => {
			const parsed = question.parse(value);
			return parsed.ok ? undefined : parsed.message;
		},
	});
}
