/** Process entry: configuration, the app, listen, and a graceful close on SIGTERM/SIGINT. */
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const app = await buildApp({ config });
if (app.generatedAdminToken) {
  // Printed exactly once: the database now has a user, so later starts never generate another.
  process.stdout.write(
    `\nFirst start: created the instance admin (admin@localhost).\nIts API token, shown only this once:\n\n  ${app.generatedAdminToken}\n\nUse it as: Authorization: Bearer <token>\n\n`,
  );
}

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // close() stops accepting, lets in-flight requests finish, then runs onClose (database).
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

try {
  await app.listen({ host: config.host, port: config.port });
} catch (error) {
  app.log.error({ err: error }, 'could not listen');
  await app.close();
  process.exit(1);
}
