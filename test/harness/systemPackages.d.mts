// Types of systemPackages.mjs (plain ESM, unit-tested from TypeScript).
export interface MachineProbe {
	hasCommand(command: string): boolean;
	hasDebianPackage(name: string): boolean;
	exists(path: string): boolean;
	isRoot(): boolean;
	chromiumPath(): string;
	chromiumPathIsCustom(): boolean;
}
export const machineProbe: MachineProbe;
export function missingDebianPackages(needs: { codeServer: boolean }, probe?: MachineProbe): string[];
export type SystemPlan = { kind: 'ready' } | { kind: 'install'; packages: string[] } | { kind: 'stop'; message: string };
export function systemPlan(needs: { codeServer: boolean }, probe?: MachineProbe): SystemPlan;
