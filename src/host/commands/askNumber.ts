/**
 * A number setting asked as pi-condense's settings rows ask it: its presets (the current one
 * marked), then "Other value…" opening an input box checked by the setting's own parser. Resolves
 * with the text to parse, or undefined when dismissed.
 */
import { showInputBox, showQuickPick } from '../ui/safeUi';

export interface NumberQuestion {
	readonly title: string;
	readonly placeHolder: string;
	/** Shown by the input box of "Other value…". */
	readonly prompt: string;
	readonly presets: ReadonlyArray<{ readonly label: string; readonly value: number }>;
	readonly current: number;
	/** The setting's parser: its message is shown while the typed value is refused. */
	readonly parse: (text: string) => { readonly ok: true } | { readonly ok: false; readonly message: string };
}

export async function askNumber(question: NumberQuestion): Promise<string | undefined> {
	const { current } = question;
	const presets = question.presets.map((preset) => ({ label: preset.label, description: preset.value === current ? 'current' : undefined, value: String(preset.value) }));
	const custom = { label: 'Other value…', description: presets.some((p) => p.value === String(current)) ? undefined : `current: ${current}`, value: '' };
	const picked = await showQuickPick([...presets, custom], { title: question.title, placeHolder: question.placeHolder });
	if (!picked || picked.value !== '') {
		return picked?.value;
	}
	return showInputBox({
		title: question.title,
		prompt: question.prompt,
		value: String(current),
		validateInput: (value) => {
			const parsed = question.parse(value);
			return parsed.ok ? undefined : parsed.message;
		},
	});
}
