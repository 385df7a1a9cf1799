/**
 * Entry of the context preview page (bundled for the browser to dist/webview/main.js, with its
 * stylesheet and the codicon font in dist/webview/main.css).
 */
import '@vscode/codicons/dist/codicon.css';
import './preview.css';
import './skeleton.css';
import './rows.css';
import './panels.css';
import 'uplot/dist/uPlot.min.css';
import './costs.css';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { HostChannel } from './hostChannel';
import { PreviewApp } from './previewApp';

const app = document.getElementById('app');
if (app) {
	new PreviewApp(app, new HostChannel()).start();
}
