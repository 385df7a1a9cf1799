/**
 * Resolves an API key or header value as Pi does since 0.77 (`auth.json` keys, `models.json` `apiKey` and
 * `headers`): `!command` runs through the shell and uses its trimmed stdout; any other value is a literal
 * in which `$NAME` and `${NAME}` are replaced by that environment variable (the credential's own `env`
 * first), `$$` is a `$` and `$!` a `!`. A value naming a variable that is unset resolves to nothing.
 * (Pi 0.73 read a bare `NAME` as a variable; `configValue.ts` keeps that rule for a Pi of that age.)
 * A failing, hanging or silent command is an error that names where the value came from, never its output.
 */
import { ConfigValueError, resolveConfigValue } from '../configValue';

type Part = { readonly literal: string } | { readonly variable: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

export interface TemplateResolution {
	readonly commandTimeoutMs?: number;
	/** Results of `!command` values, kept for the life of one summarizer as Pi keeps them per process. */
	readonly commandCache?: Map<string, string>;
}

export interface TemplateOptions extends TemplateResolution {
	/** Where the value came from, for error messages: `key of provider "openai" in …/auth.json`. */
	readonly description: string;
	/** Values that win over the process environment (an auth.json credential's `env`). */
	readonly env?: Readonly<Record<string, string>>;
}

export async function resolveTemplateValue(value: string, options: TemplateOptions): Promise<string | undefined> {
	if (value.startsWith('!')) {
		const cached = options.commandCache?.get(value);
		if (cached !== undefined) {
			return cached;
		}
		const output = await resolveConfigValue(value, { description: options.description, commandTimeoutMs: options.commandTimeoutMs });
		options.commandCache?.set(value, output);
		return output;
	}
	let resolved = '';
	for (const part of parseTemplate(value)) {
		if ('literal' in part) {
			resolved += part.literal;
			continue;
		}
		const fromEnvironment = options.env?.[part.variable] || process.env[part.variable];
		if (!fromEnvironment) {
			return undefined;
		}
		resolved += fromEnvironment;
	}
	return resolved;
}

/** Like `resolveTemplateValue`, but a value naming an unset variable is an error saying which. */
export async function requireTemplateValue(value: string, options: TemplateOptions): Promise<string> {
	const resolved = await resolveTemplateValue(value, options);
	if (resolved !== undefined) {
		return resolved;
	}
	const unset = templateVariables(value).filter((name) => !(options.env?.[name] || process.env[name]));
	throw new ConfigValueError(`The ${options.description} names the environment variable${unset.length > 1 ? 's' : ''} ${unset.join(', ')}, which ${unset.length > 1 ? 'are' : 'is'} not set in the environment VS Code runs in.`);
}

/** The environment variables a (non-command) value refers to. */
export function templateVariables(value: string): string[] {
	if (value.startsWith('!')) {
		return [];
	}
	return [...new Set(parseTemplate(value).flatMap((part) => ('variable' in part ? [part.variable] : [])))];
}

function parseTemplate(value: string): Part[] {
	const parts: Part[] = [];
	const literal = (text: string): void => {
		const last = parts.at(-1);
		if (last && 'literal' in last) {
			parts[parts.length - 1] = { literal: last.literal + text };
		} else if (text) {
			parts.push({ literal: text });
		}
	};
	let index = 0;
	while (index < value.length) {
		const dollar = value.indexOf('$', index);
		if (dollar < 0) {
			literal(value.slice(index));
			break;
		}
		literal(value.slice(index, dollar));
		const next = value[dollar + 1];
		if (next === '$' || next === '!') {
			literal(next);
			index = dollar + 2;
		} else if (next === '{') {
			const close = value.indexOf('}', dollar + 2);
			const name = close < 0 ? '' : value.slice(dollar + 2, close);
			if (close < 0) {
				literal('$');
				index = dollar + 1;
			} else {
				if (NAME.exec(name)?.[0] === name) {
					parts.push({ variable: name });
				} else {
					literal(value.slice(dollar, close + 1));
				}
				index = close + 1;
			}
		} else {
			const name = NAME.exec(value.slice(dollar + 1))?.[0];
			if (name) {
				parts.push({ variable: name });
				index = dollar + 1 + name.length;
			} else {
				literal('$');
				index = dollar + 1;
			}
		}
	}
	return parts;
}
