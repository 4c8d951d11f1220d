import type { App, AppContext } from '../../http/types.js';

export function templateRoutes(_app: App, _ctx: AppContext): void {}
