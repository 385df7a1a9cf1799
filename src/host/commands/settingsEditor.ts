/**
 * `/pruner settings` in VS Code: a quick pick over every `contextPrune` key, in groups, showing its
 * current value (and the release's default when it differs) and what it does; choosing a row toggles it, offers its presets, asks for a value, or opens the model and
 * list editors. Each change is saved to Pi's settings.json at once and the list opens again, so
 * several settings can be changed in a row (Esc closes it).
 */
import * as vscode from 'vscode';
import { parseNameList } from '../../engine/pruner';
import { ignoredRowText, parseSettingInput, type ReleaseSettingRow, type SettingRow, settingRows, settingValue, valueWithDefault } from '../../engine/views';
import { saveSetting, type CommandContext } from './commandContext';
import { CommandId } from '../commandIds';
import { pickOne, registerCommand, showInfo, showInputBox, showQuickPick } from '../ui/safeUi';
import { askNumber } from './askNumber';

type RowItem = vscode.QuickPickItem & { readonly row?: ReleaseSettingRow };

export function registerSettingsEditor(context: CommandContext): vscode.Disposable {
	return registerCommand(CommandId.Settings, async () => {
		let last: string | undefined;
		for (;;) {
			const row = await pickRow(context, last);
			if (!row) {
				return undefined;
			}
			last = row.key;
			if (row.ignored) {
				void showInfo(`contextPrune.${row.key} is ${ignoredRowText(row, context.controller.settings?.raw, context.controller.rules)}: changing it changes nothing.`);
				continue;
			}
			await editRow(context, row);
		}
	});
}

/** The keys under their groups (separators), each with its value, its default when it differs, and what it does. */
async function pickRow(context: CommandContext, lastKey: string | undefined): Promise<ReleaseSettingRow | undefined> {
	const settings = context.controller.settings;
	const { configured: config, rules } = context.controller.renderSettings;
	const items: RowItem[] = [];
	let group: string | undefined;
	for (const row of settingRows(rules)) {
		const heading = row.ignored ? `Ignored by pi-condense ${rules.version}` : row.group;
		if (heading !== group) {
			group = heading;
			items.push({ label: heading, kind: vscode.QuickPickItemKind.Separator });
		}
		items.push({
			label: row.label,
			description: row.ignored ? ignoredRowText(row, settings?.raw, rules) : valueWithDefault(row, config, rules),
			detail: `${row.description} (contextPrune.${row.key})`,
			row,
		});
	}
	return pickOne({
		title: `Pi Condense settings for pi-condense ${rules.version} · ${settings?.path ?? 'settings.json'}`,
		placeholder: 'Choose a setting to change (saved to Pi\'s settings.json, shared with pi-condense in Pi)',
		matchOnDescription: true,
		matchOnDetail: true,
		items,
		active: items.find((item) => item.row?.key === lastKey),
	}).then((item) => item?.row);
}

async function editRow(context: CommandContext, row: SettingRow): Promise<void> {
	const current = settingValue(context.controller.config, row.key);
	const saved = (value: unknown): Promise<string | undefined> => saveSetting(context, row.key, value, `${row.label}: ${describe(row, value)}.`);
	switch (row.kind) {
		case 'boolean':
			await saved(!current);
			return;
		case 'model':
			await vscode.commands.executeCommand(CommandId.SelectModel);
			return;
		case 'list': {
			const text = await showInputBox({
				title: `Pi Condense: ${row.label}`,
				prompt: 'Separated by commas or spaces; "none" clears the list.',
				value: Array.isArray(current) ? current.join(', ') : '',
			});
			const parsed = text === undefined ? undefined : parseNameList(text);
			if (parsed?.ok) {
				await saved(parsed.value);
			}
			return;
		}
		case 'choice': {
			const picked = await showQuickPick(row.choices.map((choice) => ({
				label: choice.label,
				description: choice.value === current ? 'current' : undefined,
				value: choice.value,
			})), { title: `Pi Condense: ${row.label}` });
			if (picked) {
				await saved(picked.value);
			}
			return;
		}
		case 'number':
		case 'fraction': {
			const value = await askValue(row, current);
			if (value !== undefined) {
				await saved(value.value);
			}
			return;
		}
	}
}

async function askValue(row: SettingRow, current: unknown): Promise<{ readonly value: unknown } | undefined> {
	const text = await askNumber({
		title: `Pi Condense: ${row.label}`,
		presets: row.kind === 'number' ? row.presets ?? [] : [],
		current: typeof current === 'number' ? current : null,
		parse: (input) => {
			const parsed = parseSettingInput(row, input);
			return typeof parsed === 'string' ? { ok: false, message: parsed } : { ok: true };
		},
	});
	const parsed = text === undefined ? undefined : parseSettingInput(row, text);
	return parsed === undefined || typeof parsed === 'string' ? undefined : parsed;
}

function describe(row: SettingRow, value: unknown): string {
	if (row.kind === 'boolean') {
		return value ? 'on' : 'off';
	}
	if (value === null) {
		return 'off';
	}
	if (Array.isArray(value)) {
		return value.length > 0 ? value.join(', ') : 'none';
	}
	return typeof value === 'string' ? value : JSON.stringify(value);
}
