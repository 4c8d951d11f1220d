import type { App, AppContext } from '../../http/types.js';

export function shareRoutes(_app: App, _ctx: AppContext): void {}
