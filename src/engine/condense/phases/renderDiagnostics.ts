/**
 * What the render reports about entries it could not apply or messages it had to repair. Types.
 */

export type RenderDiagnosticKind = 'unresolved-range' | 'overlapping-range' | 'orphan-result' | 'orphan-call';

export interface RenderDiagnostic {
	readonly kind: RenderDiagnosticKind;
	readonly message: string;
}

export type RenderReporter = (diagnostic: RenderDiagnostic) => void;

export const ignoreDiagnostics: RenderReporter = () => undefined;
