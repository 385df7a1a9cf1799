/**
 * Hovering a ref shows its raw output (recovered by the host with the recovery command's text);
 * clicking it, or pressing Enter on it, opens the output in full in an editor.
 */
import type { RefInfo } from '../src/shared/protocol';
import { el } from './dom';
import { chars } from './format';
import { errorMessage } from '../src/base/errorMessage';

const SHOW_DELAY_MS = 250;
const HIDE_DELAY_MS = 300;
const TOOLTIP_CHARS = 4000;

export interface RefHoverHandlers {
	readonly recover: (ref: string) => Promise<string>;
	readonly open: (ref: string) => void;
	readonly info: (ref: string) => RefInfo | undefined;
}

export class RefHover {
	private readonly tooltip = el('div', { className: 'ref-tooltip', attrs: { role: 'tooltip' } });
	private readonly texts = new Map<string, Promise<string>>();
	private showTimer: number | undefined;
	private hideTimer: number | undefined;
	private current: string | undefined;

	constructor(root: HTMLElement, private readonly handlers: RefHoverHandlers) {
		this.tooltip.hidden = true;
		document.body.appendChild(this.tooltip);
		root.addEventListener('mouseover', (event) => {
			const ref = refOf(event.target);
			if (ref) {
				this.schedule(ref.dataset.ref ?? '', ref);
			}
		});
		root.addEventListener('mouseout', (event) => {
			if (refOf(event.target)) {
				this.scheduleHide();
			}
		});
		root.addEventListener('click', (event) => {
			const ref = refOf(event.target);
			if (ref?.dataset.ref) {
				event.preventDefault();
				this.handlers.open(ref.dataset.ref);
			}
		});
		root.addEventListener('keydown', (event) => {
			const ref = refOf(event.target);
			if (ref?.dataset.ref && (event.key === 'Enter' || event.key === ' ')) {
				event.preventDefault();
				this.handlers.open(ref.dataset.ref);
			}
		});
		this.tooltip.addEventListener('mouseenter', () => window.clearTimeout(this.hideTimer));
		this.tooltip.addEventListener('mouseleave', () => this.scheduleHide());
	}

	/** Forgets recovered texts (the session changed). */
	reset(): void {
		this.texts.clear();
		this.hide();
	}

	private schedule(ref: string, anchor: HTMLElement): void {
		window.clearTimeout(this.hideTimer);
		window.clearTimeout(this.showTimer);
		this.showTimer = window.setTimeout(() => void this.show(ref, anchor), SHOW_DELAY_MS);
	}

	private scheduleHide(): void {
		window.clearTimeout(this.showTimer);
		this.hideTimer = window.setTimeout(() => this.hide(), HIDE_DELAY_MS);
	}

	private async show(ref: string, anchor: HTMLElement): Promise<void> {
		this.current = ref;
		const info = this.handlers.info(ref);
		const title = info?.kind === 'block'
			? `${ref}: compressed block of ${info.toolCallIds?.length ?? 0} tool call(s)`
			: `${ref}${info?.toolName ? ` · ${info.toolName}` : ''}${info?.chars !== undefined ? ` · ${chars(info.chars)}` : ''}`;
		const body = el('pre', { className: 'text', text: 'Recovering…' });
		this.tooltip.replaceChildren(el('div', { className: 'tooltip-title', text: `${title} — click to open in full` }), body);
		this.place(anchor);
		this.tooltip.hidden = false;
		let text = this.texts.get(ref);
		if (!text) {
			text = this.handlers.recover(ref);
			this.texts.set(ref, text);
		}
		let value: string;
		try {
			value = await text;
		} catch (error) {
			// Not kept: the next hover asks again (the session may be back by then).
			this.texts.delete(ref);
			value = `Could not recover ${ref}: ${errorMessage(error)}`;
			body.classList.add('error');
		}
		if (this.current === ref) {
			body.textContent = value.length > TOOLTIP_CHARS ? `${value.slice(0, TOOLTIP_CHARS)}\n… (${chars(value.length - TOOLTIP_CHARS)} more: click to open)` : value;
		}
	}

	private place(anchor: HTMLElement): void {
		const box = anchor.getBoundingClientRect();
		const below = box.bottom + 6;
		const top = below + 260 > window.innerHeight ? Math.max(4, box.top - 266) : below;
		this.tooltip.style.top = `${top}px`;
		this.tooltip.style.left = `${Math.max(4, Math.min(box.left, window.innerWidth - 520))}px`;
	}

	private hide(): void {
		this.current = undefined;
		this.tooltip.hidden = true;
	}
}

function refOf(target: EventTarget | null): HTMLElement | undefined {
	return target instanceof HTMLElement ? target.closest<HTMLElement>('.ref') ?? undefined : undefined;
}
