/**
 * Providers Pi renamed. Pi does not carry old names over: an auth.json entry, a models.json provider or a
 * model reference under the old name is simply unknown to the Pi that renamed it, so the user has to
 * rename it (Pi 1.0.3's changelog). We say so wherever the old name is met.
 */
const RENAMED: readonly { readonly from: string; readonly to: string; readonly in: string }[] = [
	{ from: 'azure-openai-responses', to: 'azure', in: 'Pi 1.0.3' },
];

/** A sentence about `provider` when a renamed provider's old name is used where the new one is known. */
export function renamedProviderNote(provider: string, knownProviders: ReadonlySet<string>): string | undefined {
	const rename = RENAMED.find((entry) => entry.from === provider && knownProviders.has(entry.to) && !knownProviders.has(entry.from));
	return rename && `${rename.in} renamed the provider "${rename.from}" to "${rename.to}": use "${rename.to}" in auth.json, models.json, settings.json and model references`;
}

/** The notes for old names among `names` (auth.json's keys, models.json's providers), naming `where`. */
export function renamedProviderNotes(names: Iterable<string>, knownProviders: ReadonlySet<string>, where: string): string[] {
	return [...names].flatMap((name) => {
		const note = renamedProviderNote(name, knownProviders);
		return note ? [`${where} has an entry for "${name}", which this Pi ignores. ${note}`] : [];
	});
}
