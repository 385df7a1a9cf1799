/**
 * A subset of VS Code's theme variables (Dark Modern and Light Modern), for the preview page when it
 * runs outside VS Code in the webview tests and the benchmark. VS Code sets the full set itself.
 */
export type ThemeName = 'dark' | 'light';

const common: Record<string, string> = {
	'--vscode-font-family': 'system-ui, -apple-system, "Segoe UI", "Ubuntu", sans-serif',
	'--vscode-font-size': '13px',
	'--vscode-font-weight': 'normal',
	'--vscode-editor-font-family': '"Droid Sans Mono", monospace',
	'--vscode-editor-font-size': '13px',
};

const dark: Record<string, string> = {
	'--vscode-foreground': '#cccccc',
	'--vscode-descriptionForeground': '#9d9d9d',
	'--vscode-disabledForeground': '#cccccc80',
	'--vscode-editor-background': '#1f1f1f',
	'--vscode-panel-border': '#2b2b2b',
	'--vscode-editorGroup-border': '#ffffff17',
	'--vscode-editorWidget-border': '#454545',
	'--vscode-focusBorder': '#0078d4',
	'--vscode-textLink-foreground': '#4daafc',
	'--vscode-textLink-activeForeground': '#4daafc',
	'--vscode-textCodeBlock-background': '#2b2b2b',
	'--vscode-textBlockQuote-background': '#2b2b2b',
	'--vscode-errorForeground': '#f85149',
	'--vscode-editorWarning-foreground': '#cca700',
	'--vscode-charts-blue': '#3794ff',
	'--vscode-charts-green': '#89d185',
	'--vscode-charts-orange': '#d18616',
	'--vscode-charts-purple': '#b180d7',
	'--vscode-charts-red': '#f14c4c',
	'--vscode-charts-yellow': '#cca700',
	'--vscode-editor-findMatchBackground': '#9e6a03',
	'--vscode-editor-findMatchHighlightBackground': '#ea5c0055',
	'--vscode-editorHoverWidget-background': '#202020',
	'--vscode-editorHoverWidget-foreground': '#cccccc',
	'--vscode-editorHoverWidget-border': '#454545',
	'--vscode-toolbar-hoverBackground': '#5a5d5e50',
	'--vscode-button-background': '#0078d4',
	'--vscode-button-foreground': '#ffffff',
	'--vscode-button-hoverBackground': '#026ec1',
	'--vscode-button-secondaryBackground': '#313131',
	'--vscode-button-secondaryForeground': '#cccccc',
	'--vscode-button-secondaryHoverBackground': '#3c3c3c',
	'--vscode-settings-textInputBackground': '#313131',
	'--vscode-settings-textInputForeground': '#cccccc',
	'--vscode-input-placeholderForeground': '#989898',
};

const light: Record<string, string> = {
	'--vscode-foreground': '#3b3b3b',
	'--vscode-descriptionForeground': '#3b3b3b',
	'--vscode-disabledForeground': '#61616180',
	'--vscode-editor-background': '#ffffff',
	'--vscode-panel-border': '#e5e5e5',
	'--vscode-editorGroup-border': '#e5e5e5',
	'--vscode-editorWidget-border': '#c8c8c8',
	'--vscode-focusBorder': '#005fb8',
	'--vscode-textLink-foreground': '#005fb8',
	'--vscode-textLink-activeForeground': '#005fb8',
	'--vscode-textCodeBlock-background': '#f8f8f8',
	'--vscode-textBlockQuote-background': '#f8f8f8',
	'--vscode-errorForeground': '#f85149',
	'--vscode-editorWarning-foreground': '#bf8803',
	'--vscode-charts-blue': '#1a85ff',
	'--vscode-charts-green': '#388a34',
	'--vscode-charts-orange': '#d18616',
	'--vscode-charts-purple': '#652d90',
	'--vscode-charts-red': '#e51400',
	'--vscode-charts-yellow': '#bf8803',
	'--vscode-editor-findMatchBackground': '#a8ac94',
	'--vscode-editor-findMatchHighlightBackground': '#ea5c0055',
	'--vscode-editorHoverWidget-background': '#f8f8f8',
	'--vscode-editorHoverWidget-foreground': '#3b3b3b',
	'--vscode-editorHoverWidget-border': '#c8c8c8',
	'--vscode-toolbar-hoverBackground': '#b8b8b850',
	'--vscode-button-background': '#005fb8',
	'--vscode-button-foreground': '#ffffff',
	'--vscode-button-hoverBackground': '#0258a8',
	'--vscode-button-secondaryBackground': '#e5e5e5',
	'--vscode-button-secondaryForeground': '#3b3b3b',
	'--vscode-button-secondaryHoverBackground': '#cccccc',
	'--vscode-settings-textInputBackground': '#ffffff',
	'--vscode-settings-textInputForeground': '#3b3b3b',
	'--vscode-input-placeholderForeground': '#767676',
};

export function themeVariables(theme: ThemeName): Record<string, string> {
	return { ...common, ...(theme === 'dark' ? dark : light) };
}
