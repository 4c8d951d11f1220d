import type { App, AppContext } from '../../http/types.js';

export function workspaceRoutes(_app: App, _ctx: AppContext): void {}
