/**
 * `/pruner model` in VS Code: with an argument (`provider/id[:thinking]` or `default`) it is
 * validated and saved; without one a quick pick lists `default` and every model that has
 * credentials (listed by the pi-ai worker, off the host's thread), or says that none has, then a
 * thinking level for reasoning models.
 */
import * as vscode from 'vscode';
import { type ModelArgument, modelSetText, modelText, parseModelArgument } from '../../engine/pruner';
import { SUMMARIZER_THINKING_LEVELS } from '../../engine/config';
import type { ModelChoice } from '../../node/llm/models';
import { saveSettings, type CommandContext, type SettingChange } from './commandContext';
import { CommandId } from '../commandIds';
import { errorMessage } from '../../base/errorMessage';
import { pickOne, registerCommand, showQuickPick, showWarning } from '../ui/safeUi';

type ModelItem = vscode.QuickPickItem & { readonly ref?: string; readonly reasoning?: boolean };

/** Shown in place of the models when no provider has a key: the picker is not silently just "default". */
const NO_KEY_ITEM: ModelItem = {
	label: 'No model has a key yet',
	description: 'looked in Pi\'s auth.json, the providers\' environment variables and models.json',
	detail: 'Store a key with Pi\'s /login, set the provider\'s variable (ANTHROPIC_API_KEY…) for VS Code, or define a provider in models.json. Without one, default summarizes offline (extractive).',
	iconPath: new vscode.ThemeIcon('warning'),
};

export function registerModelCommand(context: CommandContext): vscode.Disposable {
	return registerCommand(CommandId.SelectModel, async (argument?: string) => {
		let choice: ModelArgument | undefined;
		if (argument !== undefined) {
			const parsed = parseModelArgument(argument);
			if (!parsed.ok) {
				void showWarning(`Pi Condense: ${parsed.message} Nothing was changed.`);
				return undefined;
			}
			choice = parsed.value;
		} else {
			choice = await pickModel(context);
		}
		if (!choice) {
			return undefined;
		}
		const changes: SettingChange[] = [{ key: 'summarizerModel', value: choice.model }];
		if (choice.thinking) {
			changes.push({ key: 'summarizerThinking', value: choice.thinking });
		}
		return saveSettings(context, changes, modelSetText(choice.model, choice.thinking));
	});
}

async function pickModel(context: CommandContext): Promise<ModelArgument | undefined> {
	const config = context.controller.config;
	const picked = await pickFromList(context, config.summarizerModel);
	if (!picked?.ref) {
		return undefined;
	}
	if (picked.ref === 'default' || !picked.reasoning) {
		return { model: picked.ref };
	}
	const level = await showQuickPick(SUMMARIZER_THINKING_LEVELS.map((option) => ({
		label: option.label,
		description: option.value === config.summarizerThinking ? `${option.value} · current` : option.value,
		value: option.value,
	})), { title: `Pi Condense: thinking level for ${picked.ref}`, placeHolder: 'Default keeps the model\'s own level' });
	if (!level) {
		return undefined;
	}
	return level.value === 'default' ? { model: picked.ref } : { model: picked.ref, thinking: level.value };
}

function pickFromList(context: CommandContext, current: string): Promise<ModelItem | undefined> {
	const defaultItem: ModelItem = { label: 'default', description: current === 'default' ? 'the session\'s model · current' : 'the session\'s model', ref: 'default' };
	const agentDir = context.controller.discovery.locations?.agentDir;
	const later = loadChoices(context, agentDir).then((choices) => [defaultItem, ...(choices.length > 0 ? choices.map((model) => modelItem(model, current)) : [NO_KEY_ITEM])], (error: unknown) => {
		const message = errorMessage(error);
		context.logger.error(`listing models: ${message}`);
		return [defaultItem, { label: 'Could not list models', description: message, iconPath: new vscode.ThemeIcon('warning') }];
	});
	return pickOne({ title: 'Pi Condense: summarizer model', placeholder: modelText(context.controller.config), matchOnDescription: true, items: [defaultItem], later });
}

async function loadChoices(context: CommandContext, agentDir: string | undefined): Promise<ModelChoice[]> {
	if (agentDir === undefined) {
		return [];
	}
	return context.listModels(agentDir);
}

function modelItem(model: ModelChoice, current: string): ModelItem {
	return {
		label: model.ref,
		description: `${model.name}${model.ref === current ? ' · current' : ''}`,
		detail: `credentials from ${model.credentialSource}${model.reasoning ? ' · reasoning' : ''}`,
		ref: model.ref,
		reasoning: model.reasoning,
	};
}
