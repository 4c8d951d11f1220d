/**
 * The `chronicle` command line (docs/cli.md): every command but `migrate` talks to a running
 * server over the API (CHRONICLE_URL, CHRONICLE_TOKEN), so it works against any deployment.
 */
import { writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError, Option } from 'commander';
import { DATE_PRESETS } from '../render/date-range.js';
import { clientFromEnv, unwrap, type ChronicleClient } from './api-client.js';
import { FailedError, UsageError } from './cli-errors.js';
import { DATE_FORMATS, type DateFormat } from '../../packages/import/src/index.js';
import { runImport, type Output } from './import/run-import.js';

export interface ProgramIo extends Output {
  env: NodeJS.ProcessEnv;
}

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(n >= min && n <= max)) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}.`);
    return n;
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function buildProgram(io: ProgramIo): Command {
  const api = (): ChronicleClient => clientFromEnv(io.env);
  const program = new Command('chronicle')
    .description('Chronicle from the command line: imports, report renders and operator tasks.')
    .addHelpText(
      'after',
      '\nEnvironment:\n  CHRONICLE_URL    the server, e.g. http://127.0.0.1:3000\n  CHRONICLE_TOKEN  an API token (write scope for changes)\n' +
        '\nExit codes: 0 done, 1 the work failed, 2 wrong usage.',
    )
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({
      writeOut: (s) => {
        io.out(s.replace(/\n$/, ''));
      },
      writeErr: (s) => {
        io.err(s.replace(/\n$/, ''));
      },
    })
    .exitOverride();

  const importCommand = program.command('import').description('Import time entries from another tool’s CSV export.');
  for (const [format, label] of [
    ['toggl', 'Toggl Track'],
    ['clockify', 'Clockify'],
  ] as const) {
    importCommand
      .command(`${format} <file>`)
      .description(`Import a ${label} detailed report (CSV) into a workspace, through the batch endpoint.`)
      .requiredOption('-w, --workspace <id>', 'the workspace to import into')
      .option('--create-projects', 'create projects the workspace does not have (workspace admins)', false)
      .option('--dry-run', 'read and check everything, change nothing', false)
      .option('--skip-invalid', 'import the valid rows even when others cannot be imported', false)
      .option('--timezone <zone>', "the time zone of the export's times (default: your Chronicle time zone)")
      .addOption(new Option('--date-format <format>', 'how dates are written (default: detected)').choices(DATE_FORMATS))
      .option('--batch-size <n>', 'entries per request (1-1000)', integer(1, 1000), 1000)
      .addHelpText(
        'after',
        `\nUsers are matched by e-mail among the workspace's members, projects by name. Every batch is\n` +
          'stored whole or not at all; a row that cannot be imported stops the import before anything\n' +
          'is sent, unless --skip-invalid is given.',
      )
      .action(
        async (
          file: string,
          opts: {
            workspace: string;
            createProjects: boolean;
            dryRun: boolean;
            skipInvalid: boolean;
            timezone?: string;
            dateFormat?: DateFormat;
            batchSize: number;
          },
        ) => {
          const summary = await runImport(api(), { file, format: format, ...opts }, io);
          if (summary.failed > 0) {
            throw new FailedError(`${summary.failed} ${summary.failed === 1 ? 'row was' : 'rows were'} not imported.`);
          }
        },
      );
  }

  program
    .command('report')
    .description('Reports.')
    .command('render')
    .description('Render a report preview (Markdown) to a file or stdout; nothing is saved on the server.')
    .requiredOption('-t, --template <id>', 'the template (its id, or its name)')
    .requiredOption('-w, --workspace <id>', 'a workspace to report on (repeat for several)', collect)
    .addOption(new Option('--preset <preset>', 'a date range preset, in your time zone').choices(DATE_PRESETS))
    .option('--from <date>', 'first day (YYYY-MM-DD), with --to')
    .option('--to <date>', 'last day (YYYY-MM-DD), with --from')
    .option('--user <id>', 'include this user’s entries (repeat; default: only yours)', collect)
    .option('--project <id>', 'only this project (repeat)', collect)
    .option('--tag <tag>', 'only entries with this tag (repeat)', collect)
    .option('--name <name>', 'the report name the template sees', 'Preview')
    .option('-o, --out <file>', 'write the Markdown here instead of stdout')
    .action(
      async (opts: {
        template: string;
        workspace: string[];
        preset?: string;
        from?: string;
        to?: string;
        user?: string[];
        project?: string[];
        tag?: string[];
        name: string;
        out?: string;
      }) => {
        const dateRange = dateRangeOf(opts);
        const client = api();
        const templates = await unwrap(client.GET('/api/v1/templates'));
        const template =
          templates.find((t) => t.id === opts.template) ?? templates.find((t) => t.name.toLowerCase() === opts.template.toLowerCase());
        const preview = await unwrap(
          client.POST('/api/v1/reports/preview', {
            body: {
              name: opts.name,
              templateId: template?.id ?? opts.template,
              filters: {
                workspaceIds: opts.workspace,
                dateRange,
                ...(opts.user ? { userIds: opts.user } : {}),
                ...(opts.project ? { projectIds: opts.project } : {}),
                ...(opts.tag ? { tags: opts.tag } : {}),
              },
            },
          }),
        );
        const { from, to } = preview.filters.dateRange;
        if (opts.out) {
          await writeFile(opts.out, preview.renderedMarkdown);
          io.err(`Wrote ${opts.out}: ${from} to ${to}, ${preview.totalMinutes} minutes.`);
        } else {
          io.out(preview.renderedMarkdown);
        }
      },
    );

  program
    .command('users')
    .description('Users (instance admins).')
    .command('create')
    .description('Create a user; prints the new user’s id (or the user as JSON with --json).')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--email <email>', 'e-mail address (unique)')
    .option('--timezone <zone>', 'IANA time zone, e.g. Europe/Berlin (default: UTC)')
    .option('--instance-admin', 'make the user an instance admin', false)
    .option('--json', 'print the whole user as JSON', false)
    .action(async (opts: { name: string; email: string; timezone?: string; instanceAdmin: boolean; json: boolean }) => {
      const user = await unwrap(
        api().POST('/api/v1/users', {
          body: {
            name: opts.name,
            email: opts.email,
            ...(opts.timezone ? { timezone: opts.timezone } : {}),
            ...(opts.instanceAdmin ? { instanceAdmin: true } : {}),
          },
        }),
      );
      io.out(opts.json ? JSON.stringify(user, null, 2) : user.id);
    });

  program
    .command('tokens')
    .description('API tokens.')
    .command('create')
    .description('Create an API token and print it (shown once). Instance admins may create one for any user.')
    .option('--user <id>', 'whose token (default: yours)')
    .addOption(new Option('--scopes <scopes>', 'read, write or read,write').default('read,write'))
    .option('--name <name>', 'a label for the token')
    .option('--expires-in-days <n>', 'days until it expires (1-365; default: never)', integer(1, 365))
    .option('--json', 'print the token with its details as JSON', false)
    .action(async (opts: { user?: string; scopes: string; name?: string; expiresInDays?: number; json: boolean }) => {
      const given = [...new Set(opts.scopes.split(',').map((s) => s.trim()))];
      const scopes = given.filter((s): s is 'read' | 'write' => s === 'read' || s === 'write');
      if (scopes.length === 0 || scopes.length !== given.length) throw new UsageError('--scopes must be read, write or read,write.');
      const client = api();
      const userId = opts.user ?? (await unwrap(client.GET('/api/v1/me'))).id;
      const token = await unwrap(
        client.POST('/api/v1/users/{id}/tokens', {
          params: { path: { id: userId } },
          body: {
            scopes,
            ...(opts.name ? { name: opts.name } : {}),
            ...(opts.expiresInDays ? { expiresInDays: opts.expiresInDays } : {}),
          },
        }),
      );
      io.out(opts.json ? JSON.stringify(token, null, 2) : token.token);
    });

  program
    .command('migrate')
    .description('Apply pending database migrations to DATABASE_URL (PostgreSQL) or DATA_DIR (embedded), without a server.')
    .action(async () => {
      const { runMigrations } = await import('../db/run-migrations.js');
      io.out(`Migrations applied (${await runMigrations(io.env)}).`);
    });

  return program;
}

type DatePreset = (typeof DATE_PRESETS)[number];
const isDatePreset = (value: string): value is DatePreset => (DATE_PRESETS as readonly string[]).includes(value);

function dateRangeOf(opts: { preset?: string; from?: string; to?: string }): DatePreset | { from: string; to: string } {
  if (opts.preset && (opts.from || opts.to)) throw new UsageError('Give either --preset or --from and --to, not both.');
  // Commander already refused any other preset.
  if (opts.preset && isDatePreset(opts.preset)) return opts.preset;
  if (opts.from && opts.to) return { from: opts.from, to: opts.to };
  throw new UsageError('Give a date range: --preset, or --from and --to.');
}
