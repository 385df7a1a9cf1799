/**
 * What-if: change a pruning setting and see the context, reclaim and cache impact recomputed by
 * the host at once, without writing anything; Apply writes the changed keys to Pi's settings.json.
 */
import type { PageSnapshot, WhatIfOverrides, WhatIfSettings } from '../src/shared/protocol';
import { el, figure } from './dom';

export interface WhatIfHandlers {
	readonly onChange: (overrides: WhatIfOverrides) => void;
	readonly onApply: (overrides: WhatIfOverrides) => void;
}

const DEBOUNCE_MS = 200;

export class WhatIfPanel {
	readonly element: HTMLElement;
	private readonly window = numberField('whatif-window', 'Rolling window K (closed chains kept raw)');
	private readonly strip = el('vscode-checkbox', { attrs: { label: 'Strip old thinking' }, data: { control: 'whatif-strip' } });
	private readonly keep = numberField('whatif-keep', 'Keep thinking on the last N assistant messages');
	/** The thinking-strip controls, shown only for a release that has the strip (up to 2.4.3). */
	private readonly thinkingPart: HTMLElement;
	private readonly cooldown = numberField('whatif-cooldown', 'Error-purge cooldown (assistant turns)');
	private readonly tools = named(el('vscode-textfield', { attrs: { placeholder: 'e.g. todoread, todowrite' }, data: { control: 'whatif-tools' } }), 'Protected tools (comma-separated)');
	private readonly apply = el('vscode-button', { text: 'Apply to Pi settings', data: { control: 'whatif-apply' } });
	private readonly reset = el('vscode-button', { text: 'Reset', attrs: { secondary: '' }, data: { control: 'whatif-reset' } });
	private readonly changes = el('div', { className: 'changes' });
	private readonly status = el('p', { className: 'note', attrs: { role: 'status' } });
	private configured: WhatIfSettings | undefined;
	private timer: number | undefined;

	constructor(private readonly handlers: WhatIfHandlers) {
		this.thinkingPart = el('div', { className: 'thinking-part' }, [this.strip, labelled(this.keep)]);
		this.element = el('section', { className: 'panel what-if', attrs: { 'aria-label': 'What-if settings' } }, [
			el('h2', { text: 'What if…' }),
			el('p', { className: 'note', text: 'Nothing is written until you apply. Chains already compressed stay compressed; a smaller window shows what the next flush would compress.' }),
			labelled(this.window),
			this.thinkingPart,
			labelled(this.cooldown),
			labelled(this.tools),
			this.changes,
			el('div', { className: 'buttons' }, [this.apply, this.reset]),
			this.status,
		]);
		for (const control of [this.window, this.keep, this.cooldown, this.tools]) {
			control.addEventListener('input', () => this.changed());
		}
		this.strip.addEventListener('change', () => this.changed());
		this.apply.addEventListener('click', () => this.handlers.onApply(this.overrides()));
		this.reset.addEventListener('click', () => {
			if (this.configured) {
				this.show(this.configured, true);
				this.handlers.onChange({});
			}
		});
	}

	/** Shows the snapshot's settings; controls the user is editing keep their text. */
	update(snapshot: PageSnapshot): void {
		this.configured = snapshot.whatIf.configured;
		this.thinkingPart.hidden = !snapshot.whatIf.thinkingStripApplies;
		this.show(snapshot.whatIf.effective, false);
		const changes = snapshot.whatIf.changes;
		this.changes.replaceChildren(
			figure('whatIf.changes', changes.length === 0 ? 'Showing the current settings.' : `Would write: ${changes.map((c) => `${c.key} = ${JSON.stringify(c.value)}`).join(', ')}`, changes.length),
			...(snapshot.whatIf.simulatedChains.length > 0 ? [el('div', { text: `The next flush would compress ${snapshot.whatIf.simulatedChains.join(', ')} (marked what-if).` })] : []),
			...(snapshot.whatIf.uncoveredChains > 0 ? [el('div', { text: `${snapshot.whatIf.uncoveredChains} of them have no summary yet: their body lists their tool calls, with the refs to recover each output.` })] : []),
		);
		this.apply.toggleAttribute('disabled', changes.length === 0);
		this.reset.toggleAttribute('disabled', changes.length === 0);
	}

	showStatus(message: string): void {
		this.status.textContent = message;
	}

	/** The overrides the controls hold (only what differs from the configured settings). */
	overrides(): WhatIfOverrides {
		const configured = this.configured;
		if (!configured) {
			return {};
		}
		const out: { -readonly [K in keyof WhatIfSettings]?: WhatIfSettings[K] } = {};
		const count = (field: HTMLElement & { value: string }): number | undefined => {
			const value = Number(field.value);
			return field.value.trim() !== '' && Number.isInteger(value) && value >= 0 ? value : undefined;
		};
		const window = count(this.window);
		const keep = count(this.keep);
		const cooldown = count(this.cooldown);
		const tools = this.tools.value.split(',').map((name) => name.trim()).filter((name) => name !== '');
		if (window !== undefined && window !== configured['chainCompression.rollingWindow']) {
			out['chainCompression.rollingWindow'] = window;
		}
		if (this.strip.checked !== configured['thinkingStrip.enabled']) {
			out['thinkingStrip.enabled'] = this.strip.checked;
		}
		if (keep !== undefined && keep !== configured['thinkingStrip.keepLastTurns']) {
			out['thinkingStrip.keepLastTurns'] = keep;
		}
		if (cooldown !== undefined && cooldown !== configured['purgeErrors.cooldownTurns']) {
			out['purgeErrors.cooldownTurns'] = cooldown;
		}
		if (tools.join(',') !== configured.protectedTools.join(',')) {
			out.protectedTools = tools;
		}
		return out;
	}

	private changed(): void {
		window.clearTimeout(this.timer);
		this.timer = window.setTimeout(() => this.handlers.onChange(this.overrides()), DEBOUNCE_MS);
	}

	private show(settings: WhatIfSettings, force: boolean): void {
		const set = (field: HTMLElement & { value: string }, value: string): void => {
			if (force || !field.matches(':focus-within')) {
				field.value = value;
			}
		};
		set(this.window, String(settings['chainCompression.rollingWindow']));
		set(this.keep, String(settings['thinkingStrip.keepLastTurns']));
		set(this.cooldown, String(settings['purgeErrors.cooldownTurns']));
		set(this.tools, settings.protectedTools.join(', '));
		this.strip.checked = settings['thinkingStrip.enabled'];
	}
}

function numberField(control: string, label: string): HTMLElementTagNameMap['vscode-textfield'] {
	return named(el('vscode-textfield', { attrs: { type: 'number', min: '0' }, data: { control } }), label);
}

/**
 * Names the field's inner input for assistive technology: the custom element's input sits in its
 * shadow root, where a `<label>` around the element does not reach; its `label` property becomes the
 * input's `aria-label`.
 */
export function named(field: HTMLElementTagNameMap['vscode-textfield'], label: string): HTMLElementTagNameMap['vscode-textfield'] {
	field.label = label;
	return field;
}

/** The field under its visible label (the same words as its accessible name). */
function labelled(control: HTMLElementTagNameMap['vscode-textfield']): HTMLElement {
	return el('div', { className: 'field' }, [el('span', { className: 'field-label', text: control.label, attrs: { 'aria-hidden': 'true' } }), control]);
}
