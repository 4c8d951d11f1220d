import type { App, AppContext } from '../../http/types.js';

export function timeEntryRoutes(_app: App, _ctx: AppContext): void {}
