/** The web view (`memoir ui`): pages over a memory client, served on a loopback address. */
export { type ServeUiOptions, serveUi, type UiEndpoint } from './ui-server.js';
