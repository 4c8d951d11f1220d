/**
 * The one database schema, shared by PGlite and PostgreSQL. Constraints here are the last line of
 * defence: the database refuses inconsistent data even if a code path forgets a rule.
 * Triggers and deferred keys that Drizzle cannot express live in the custom SQL migrations.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
const createdAt = () => instant('created_at').notNull().defaultNow();

/**
 * Binary data. node-postgres sends a Buffer as bytes and the PGlite client as `\x` hex text; both
 * read back a Buffer or Uint8Array (hex text too, in case a driver leaves it undecoded).
 */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array | string }>({
  dataType: () => 'bytea',
  toDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
  fromDriver: (value) =>
    typeof value === 'string' ? new Uint8Array(Buffer.from(value.replace(/^\\x/, ''), 'hex')) : new Uint8Array(value),
});

/** One-off facts about this installation, e.g. that the built-in templates were seeded. */
export const instanceState = pgTable('instance_state', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    locale: text('locale').notNull().default('en'),
    imageUrl: text('image_url'),
    instanceAdmin: boolean('instance_admin').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    check('users_name_length', sql`char_length(${t.name}) between 1 and 100`),
    check('users_locale_length', sql`char_length(${t.locale}) between 1 and 35`),
  ],
);

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    tokenHash: text('token_hash').notNull().unique(),
    scopes: text('scopes').array().notNull(),
    /** Marks the token managed by BOOTSTRAP_ADMIN_TOKEN, so a new value replaces it. */
    bootstrap: boolean('bootstrap').notNull().default(false),
    /**
     * The token that created this one for its own user; revoking it revokes this one too. Null for
     * tokens an instance admin made for someone else, bootstrap tokens and older rows.
     */
    createdByTokenId: text('created_by_token_id').references((): AnyPgColumn => apiTokens.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: instant('expires_at'),
    revokedAt: instant('revoked_at'),
  },
  (t) => [
    index('api_tokens_user_idx').on(t.userId),
    index('api_tokens_created_by_idx').on(t.createdByTokenId),
    check('api_tokens_scopes_valid', sql`cardinality(${t.scopes}) between 1 and 2 and ${t.scopes} <@ array['read','write']::text[]`),
  ],
);

/**
 * The API rate limit's fixed-window counter, one row per user (docs/operations.md "Rate limit"):
 * all of a user's tokens and sessions spend one budget, so minting tokens does not multiply it.
 * Kept in the database so every process behind a load balancer counts against the same budget.
 */
export const userRateWindows = pgTable('user_rate_windows', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  windowStart: instant('window_start').notNull(),
  used: integer('used').notNull(),
});

/** A user's password (scrypt, parameters inside the string); a user without a row cannot sign in. */
export const passwords = pgTable('passwords', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  hash: text('hash').notNull(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

/** One-time set-password links an instance admin hands to a user; only a hash of the secret is kept. */
export const passwordLinks = pgTable(
  'password_links',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
  },
  (t) => [index('password_links_user_idx').on(t.userId)],
);

/** Browser sessions: the cookie carries a random secret, the row its hash, so any process can check it. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
    lastSeenAt: instant('last_seen_at').notNull(),
    /** The absolute limit; the idle limit counts from lastSeenAt. */
    expiresAt: instant('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Failed password checks per key ("account:<id or email>", "address:<ip>") in a fixed window. */
export const authFailures = pgTable('auth_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStartedAt: instant('window_started_at').notNull(),
});

export const workspaces = pgTable(
  'workspaces',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** ISO 4217 code of every amount in the workspace; the service checks it against the runtime's list. */
    currency: text('currency').notNull().default('EUR'),
    /** Who may see rates and amounts: `admins` (admins and owners) or `members` (every member). */
    ratesVisibleTo: text('rates_visible_to', { enum: ['admins', 'members'] })
      .notNull()
      .default('admins'),
    /** Branding (docs/api.md "Branding"): the name the share page shows, or none. */
    brandingDisplayName: text('branding_display_name'),
    /** `#rrggbb` in lower case, dark enough for white text (4.5:1), or none. */
    brandingAccentColor: text('branding_accent_color'),
    /** Markdown shown at the foot of the share page; empty: none. */
    brandingFooter: text('branding_footer').notNull().default(''),
    /**
     * Goes up with every change of the branding or the logo: the share page's cache key, so the
     * next view of any share page shows the change (docs/decisions.md "Workspace branding: where it lives and how share pages follow it").
     */
    brandingVersion: integer('branding_version').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check('workspaces_name_length', sql`char_length(${t.name}) between 1 and 100`),
    check('workspaces_currency_code', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('workspaces_rates_visible_to_valid', sql`${t.ratesVisibleTo} in ('admins','members')`),
    check(
      'workspaces_branding_display_name_valid',
      sql`${t.brandingDisplayName} is null or (char_length(${t.brandingDisplayName}) between 1 and 100 and ${t.brandingDisplayName} = btrim(${t.brandingDisplayName}))`,
    ),
    check('workspaces_branding_accent_color_valid', sql`${t.brandingAccentColor} ~ '^#[0-9a-f]{6}$'`),
    check('workspaces_branding_footer_length', sql`char_length(${t.brandingFooter}) <= 500`),
    check('workspaces_branding_version_nonnegative', sql`${t.brandingVersion} >= 0`),
  ],
);

/**
 * A workspace's logo, as the server re-encoded it: a PNG at most 512 pixels wide (and high), without
 * metadata. `sha256` (hex) names the version in the logo's URL, so the URL can be cached forever.
 */
export const workspaceLogos = pgTable(
  'workspace_logos',
  {
    workspaceId: text('workspace_id')
      .primaryKey()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    png: bytea('png').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sha256: text('sha256').notNull(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('workspace_logos_size', sql`octet_length(${t.png}) between 1 and 2097152`),
    check('workspace_logos_width', sql`${t.width} between 1 and 512`),
    check('workspace_logos_height', sql`${t.height} between 1 and 512`),
    check('workspace_logos_sha256_hex', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'admin', 'member'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId),
    check('workspace_members_role_valid', sql`${t.role} in ('owner','admin','member')`),
  ],
);

/** A workspace's clients: projects are done for them. Names are unique per workspace, ignoring case. */
export const clients = pgTable(
  'clients',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    archived: boolean('archived').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('clients_workspace_name_lower_key').on(t.workspaceId, sql`lower(${t.name})`),
    unique('clients_id_workspace_key').on(t.id, t.workspaceId),
    check('clients_name_length', sql`char_length(${t.name}) between 1 and 100`),
  ],
);

export const projects = pgTable(
  'projects',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** A client of the project's own workspace, or none; deleting the client sets it to null. */
    clientId: text('client_id'),
    /** What `billable` a new entry on the project gets when its request leaves it out. */
    billableByDefault: boolean('billable_by_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    unique('projects_id_workspace_key').on(t.id, t.workspaceId),
    // ON DELETE SET NULL of client_id alone (the migration writes the column list, which Drizzle
    // cannot): the project stays in its workspace when its client goes.
    foreignKey({
      name: 'projects_client_workspace_fk',
      columns: [t.clientId, t.workspaceId],
      foreignColumns: [clients.id, clients.workspaceId],
    }).onDelete('set null'),
    index('projects_client_idx').on(t.clientId),
    index('projects_workspace_idx').on(t.workspaceId),
    check('projects_name_length', sql`char_length(${t.name}) between 1 and 100`),
  ],
);

/**
 * Hourly rates at four levels (docs/api.md "Rates"): a row with a project and a user is a project
 * member rate, with a project alone a project rate, with a user alone a workspace member rate, with
 * neither a workspace rate. A row applies from its date until the next row of its level; a row
 * with `minor` null ends its level from that date. One row per level and date: the unique key
 * treats the null keys as equal, so concurrent writes for one date cannot make two rows.
 */
export const rates = pgTable(
  'rates',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    projectId: text('project_id'),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    level: text('level', { enum: ['project_member', 'project', 'workspace_member', 'workspace'] }).notNull(),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    /** Minor units per hour; null ends the level from `effectiveFrom`. */
    minor: integer('minor'),
    createdAt: createdAt(),
  },
  (t) => [
    foreignKey({
      name: 'rates_project_workspace_fk',
      columns: [t.projectId, t.workspaceId],
      foreignColumns: [projects.id, projects.workspaceId],
    }).onDelete('cascade'),
    unique('rates_level_date_key').on(t.workspaceId, t.projectId, t.userId, t.effectiveFrom).nullsNotDistinct(),
    check(
      'rates_level_keys',
      sql`case ${t.level}
        when 'project_member' then ${t.projectId} is not null and ${t.userId} is not null
        when 'project' then ${t.projectId} is not null and ${t.userId} is null
        when 'workspace_member' then ${t.projectId} is null and ${t.userId} is not null
        when 'workspace' then ${t.projectId} is null and ${t.userId} is null
        else false end`,
    ),
    check('rates_currency_code', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('rates_minor_range', sql`${t.minor} between 0 and 100000000`),
    index('rates_user_idx').on(t.userId),
  ],
);

export const projectMembers = pgTable(
  'project_members',
  {
    projectId: text('project_id').notNull(),
    workspaceId: text('workspace_id').notNull(),
    userId: text('user_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId] }),
    index('project_members_user_idx').on(t.userId),
    foreignKey({ columns: [t.projectId, t.workspaceId], foreignColumns: [projects.id, projects.workspaceId] }).onDelete('cascade'),
    // A project member is always a workspace member: leaving the workspace drops the project memberships.
    foreignKey({
      columns: [t.workspaceId, t.userId],
      foreignColumns: [workspaceMembers.workspaceId, workspaceMembers.userId],
    }).onDelete('cascade'),
  ],
);

/**
 * An entry's workspace, user and project (in that workspace) must exist, and an entry goes with
 * any of them, as foreign keys with ON DELETE CASCADE would have it. They are kept by triggers
 * (migration 0009_time_entry_references) that check each statement's rows as a set, once per
 * distinct reference, rather than by foreign keys, which check every row on its own: a batch of
 * 1,000 entries spent more than half of its statement in 3,000 such checks (docs/decisions.md
 * "Time entries' references are checked per statement").
 */
export const timeEntries = pgTable(
  'time_entries',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    projectId: text('project_id'),
    userId: text('user_id').notNull(),
    start: instant('start').notNull(),
    minutes: integer('minutes').notNull(),
    description: text('description').notNull().default(''),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    billable: boolean('billable').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('time_entries_workspace_start_idx').on(t.workspaceId, t.start),
    index('time_entries_user_start_idx').on(t.userId, t.start),
    index('time_entries_project_start_idx').on(t.projectId, t.start),
    index('time_entries_tags_idx').using('gin', t.tags),
    // A tag within one workspace (migration 0025_workspace_tags): the count of a list filtered by a
    // workspace and a tag reads that workspace's entries alone, however many others use the tag.
    index('time_entries_workspace_tags_idx').using('gin', sql`chronicle_workspace_tags(${t.workspaceId}, ${t.tags})`),
    check('time_entries_minutes_range', sql`${t.minutes} between 1 and 1440`),
    check('time_entries_description_length', sql`char_length(${t.description}) <= 2000`),
    check('time_entries_tags_count', sql`cardinality(${t.tags}) <= 20`),
  ],
);

/**
 * How many entries each user has in each workspace: what ENTRY_QUOTA_PER_USER limits, kept by
 * statement triggers on time_entries (migration 0021_time_entry_counts) in the same transaction
 * as the entries themselves, so an insert checks its quota by reading one row instead of counting
 * up to the quota's entries. The upsert of a row locks it to the end of its transaction: two
 * inserts for one user in one workspace count one after the other, on any number of processes.
 */
export const timeEntryCounts = pgTable(
  'time_entry_counts',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    entries: integer('entries').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), check('time_entry_counts_entries_range', sql`${t.entries} >= 0`)],
);

export const templates = pgTable(
  'templates',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    body: text('body').notNull(),
    nameTemplate: text('name_template').notNull().default(''),
    noteTemplate: text('note_template').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    /** Stable key of a seeded built-in template; null for templates made by admins. */
    builtInKey: text('built_in_key').unique(),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('templates_name_length', sql`char_length(${t.name}) between 1 and 100`),
    check('templates_description_length', sql`char_length(${t.description}) <= 1000`),
    check('templates_body_length', sql`char_length(${t.body}) <= 100000`),
    check('templates_name_template_length', sql`char_length(${t.nameTemplate}) <= 500`),
    check('templates_note_template_length', sql`char_length(${t.noteTemplate}) <= 5000`),
  ],
);

export const reports = pgTable(
  'reports',
  {
    id: text('id').primaryKey(),
    ownerUserId: text('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Deliberately not a foreign key: a report survives the deletion of its template. */
    templateId: text('template_id').notNull(),
    name: text('name').notNull(),
    note: text('note'),
    filters: jsonb('filters').notNull(),
    /**
     * Rounding, hideAmounts, billable, durationFormat and locale (billing.md §3), every field
     * present. Chronicle always writes it; the default (the defaults in `en`) is for a row written
     * by a process of an earlier release during a rolling upgrade.
     */
    options: jsonb('options')
      .notNull()
      .default(sql`'{"rounding":{"mode":"none"},"hideAmounts":false,"billable":"all","durationFormat":"hm","locale":"en"}'::jsonb`),
    workspaceIds: text('workspace_ids').array().notNull(),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    totalMinutes: integer('total_minutes'),
    snapshotProjectIds: text('snapshot_project_ids').array(),
    /**
     * Whether the snapshot holds an entry by someone other than the owner on a project: then a
     * recipient must read every project of `snapshotProjectIds`; otherwise (only the owner's own
     * or unassigned entries) nobody is restricted. Null when it cannot be decided (a row rendered
     * before it was tracked): nobody is eligible until the report is re-rendered.
     */
    restrictsRecipients: boolean('restricts_recipients'),
    version: integer('version').notNull(),
    /** Moves with `version`; the composite key in the SQL migration makes them agree. */
    currentContentId: text('current_content_id').notNull(),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('reports_owner_created_idx').on(t.ownerUserId, t.createdAt, t.id),
    index('reports_workspace_ids_idx').using('gin', t.workspaceIds),
    index('reports_template_idx').on(t.templateId),
    check('reports_name_length', sql`char_length(${t.name}) between 1 and 100`),
    check('reports_note_length', sql`${t.note} is null or char_length(${t.note}) between 1 and 20000`),
    check('reports_workspaces_count', sql`cardinality(${t.workspaceIds}) between 1 and 20`),
    check('reports_period_order', sql`${t.periodFrom} <= ${t.periodTo} and ${t.periodTo} - ${t.periodFrom} < 366`),
    check('reports_version_positive', sql`${t.version} >= 1`),
    check('reports_options_object', sql`jsonb_typeof(${t.options}) = 'object'`),
  ],
);

/** Immutable rendered versions. Update and lone delete are refused by triggers (SQL migration). */
export const reportContents = pgTable(
  'report_contents',
  {
    id: text('id').primaryKey(),
    reportId: text('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    renderedMarkdown: text('rendered_markdown').notNull(),
    totalMinutes: integer('total_minutes').notNull(),
    snapshotProjectIds: text('snapshot_project_ids').array().notNull(),
    /**
     * Minutes by project, user, tag and day, computed with the document (version-summary.ts).
     * Null for versions rendered before it was stored: the entries may have changed since.
     */
    summary: jsonb('summary'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('report_contents_report_version_key').on(t.reportId, t.version),
    unique('report_contents_identity_key').on(t.id, t.reportId, t.version),
  ],
);

/**
 * The rows a content version was rendered from (exports.md §1), written with the version and
 * never changed (SQL migration 0015 refuses updates). `data` is the dataset's JSON (dataset.ts),
 * gzipped and base64-encoded by the render worker: about a fifth of the JSON's size, and text on both
 * engines. Versions rendered before datasets were stored have no row.
 */
export const reportDatasets = pgTable(
  'report_datasets',
  {
    contentId: text('content_id')
      .primaryKey()
      .references(() => reportContents.id, { onDelete: 'cascade' }),
    /** The dataset's format (dataset.ts `DATASET_FORMAT`; earlier ones are still read). */
    format: integer('format').notNull(),
    entryCount: integer('entry_count').notNull(),
    /** The report's locale when the version was rendered: its PDF's paper and formats. */
    locale: text('locale').notNull(),
    data: text('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('report_datasets_entry_count_nonnegative', sql`${t.entryCount} >= 0`)],
);

export const sends = pgTable(
  'sends',
  {
    id: text('id').primaryKey(),
    reportId: text('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    reportContentId: text('report_content_id')
      .notNull()
      .references(() => reportContents.id, { onDelete: 'cascade' }),
    senderUserId: text('sender_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    message: text('message'),
    sendToSelf: boolean('send_to_self').notNull(),
    sentAt: instant('sent_at').notNull().defaultNow(),
  },
  (t) => [
    index('sends_report_idx').on(t.reportId, t.sentAt),
    check('sends_message_length', sql`${t.message} is null or char_length(${t.message}) <= 1000`),
  ],
);

/** An inbox message: a frozen reference to the sent content version. */
export const deliveries = pgTable(
  'deliveries',
  {
    id: text('id').primaryKey(),
    sendId: text('send_id')
      .notNull()
      .references(() => sends.id, { onDelete: 'cascade' }),
    reportId: text('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    reportContentId: text('report_content_id')
      .notNull()
      .references(() => reportContents.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    recipientUserId: text('recipient_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    self: boolean('self').notNull(),
    reportName: text('report_name').notNull(),
    senderUserId: text('sender_user_id').notNull(),
    senderName: text('sender_name').notNull(),
    message: text('message'),
    sentAt: instant('sent_at').notNull(),
    readAt: instant('read_at'),
  },
  (t) => [
    unique('deliveries_send_recipient_key').on(t.sendId, t.recipientUserId),
    index('deliveries_recipient_idx').on(t.recipientUserId, t.sentAt),
    index('deliveries_content_idx').on(t.reportContentId, t.recipientUserId),
    foreignKey({
      columns: [t.reportContentId, t.reportId, t.version],
      foreignColumns: [reportContents.id, reportContents.reportId, reportContents.version],
    }).onDelete('cascade'),
  ],
);

export const shares = pgTable(
  'shares',
  {
    id: text('id').primaryKey(),
    reportId: text('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    reportContentId: text('report_content_id')
      .notNull()
      .references(() => reportContents.id, { onDelete: 'cascade' }),
    /** The served version's number; the composite key below makes it agree with reportContentId. */
    version: integer('version').notNull(),
    createdByUserId: text('created_by_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Set when minted by a recipient over an inbox message; such links die with the delivery. */
    deliveryId: text('delivery_id').references(() => deliveries.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    tokenEncrypted: text('token_encrypted').notNull(),
    passcodeHash: text('passcode_hash'),
    expiresAt: instant('expires_at'),
    revokedAt: instant('revoked_at'),
    viewCount: integer('view_count').notNull().default(0),
    /** Exports downloaded through the link (exports.md §2), counted apart from page views. */
    downloadCount: integer('download_count').notNull().default(0),
    /**
     * 'latest': the link serves the report's current version, moved on in the transaction that
     * appends each version (delivery.md §2); 'version': the version it was minted over, forever.
     */
    follows: text('follows').notNull().default('version'),
    /** Set on a link a schedule minted for an outside address (delivery.md §3): its views are that address's. */
    emailAddress: text('email_address'),
    lastViewedAt: instant('last_viewed_at'),
    /** Wrong passcodes from every address in the current window: the per-link ceiling. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    failedWindowStartedAt: instant('failed_window_started_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('shares_report_idx').on(t.reportId, t.createdByUserId),
    index('shares_delivery_idx').on(t.deliveryId),
    foreignKey({
      columns: [t.reportContentId, t.reportId, t.version],
      foreignColumns: [reportContents.id, reportContents.reportId, reportContents.version],
    }).onDelete('cascade'),
    check('shares_view_count_nonnegative', sql`${t.viewCount} >= 0`),
    check('shares_download_count_nonnegative', sql`${t.downloadCount} >= 0`),
    // A recipient's link always serves the version delivered to them.
    check('shares_follows', sql`${t.follows} = 'version' or (${t.follows} = 'latest' and ${t.deliveryId} is null)`),
    index('shares_following_idx')
      .on(t.reportId)
      .where(sql`${t.follows} = 'latest'`),
    // One live following link per report and outside address, reused by every run (`emailLink: latest`).
    uniqueIndex('shares_address_following_key')
      .on(t.reportId, t.emailAddress)
      .where(sql`${t.follows} = 'latest' and ${t.emailAddress} is not null and ${t.revokedAt} is null`),
  ],
);

/**
 * Wrong passcodes per link and client address in the current window (docs/operations.md
 * "Passcode attempts"). Counting per address keeps an attacker elsewhere from locking the right
 * reader out; the per-link ceiling on `shares` still bounds guessing from many addresses.
 */
export const passcodeAttempts = pgTable(
  'passcode_attempts',
  {
    shareId: text('share_id')
      .notNull()
      .references(() => shares.id, { onDelete: 'cascade' }),
    /** A keyed hash of the client address, never the address itself. */
    clientKey: text('client_key').notNull(),
    attempts: integer('attempts').notNull(),
    windowStartedAt: instant('window_started_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.clientKey] }), index('passcode_attempts_window_idx').on(t.windowStartedAt)],
);

export const REACTION_KEYS = ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'] as const;

/**
 * Each version's discussion revision: moved by triggers (migration 0022_discussion_revisions) in
 * the same statement as any write that changes what a discussion read shows (a comment or
 * reaction added, edited or removed; a participant's name or avatar changed). A cached discussion
 * document is valid for exactly the revision it was built at (discussion-cache.ts).
 */
export const discussionRevisions = pgTable('discussion_revisions', {
  reportContentId: text('report_content_id')
    .primaryKey()
    .references(() => reportContents.id, { onDelete: 'cascade' }),
  revision: bigint('revision', { mode: 'number' }).notNull().default(0),
});

export const comments = pgTable(
  'comments',
  {
    id: text('id').primaryKey(),
    reportContentId: text('report_content_id')
      .notNull()
      .references(() => reportContents.id, { onDelete: 'cascade' }),
    authorUserId: text('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('comments_content_idx').on(t.reportContentId, t.createdAt, t.id),
    unique('comments_id_content_key').on(t.id, t.reportContentId),
    check('comments_body_length', sql`char_length(${t.body}) between 1 and 10000`),
  ],
);

export const reactions = pgTable(
  'reactions',
  {
    id: text('id').primaryKey(),
    reportContentId: text('report_content_id')
      .notNull()
      .references(() => reportContents.id, { onDelete: 'cascade' }),
    /** null: a reaction on the version body itself. */
    commentId: text('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    emoji: text('emoji').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('reactions_one_per_user_key').on(t.reportContentId, t.commentId, t.userId, t.emoji).nullsNotDistinct(),
    index('reactions_comment_idx').on(t.commentId),
    // A reaction on a comment must name the comment's own version.
    foreignKey({
      columns: [t.commentId, t.reportContentId],
      foreignColumns: [comments.id, comments.reportContentId],
    }).onDelete('cascade'),
    check('reactions_emoji_valid', sql`${t.emoji} in ('+1','-1','laugh','hooray','confused','heart','rocket','eyes')`),
  ],
);

/**
 * A report's schedule (delivery.md §1): one per report, owner only. `nextRunAt` is the next
 * occurrence in the owner's time zone (null while inactive); `revision` moves with every change
 * of the schedule and every edit of the report, so a run claimed before a change is skipped.
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    reportId: text('report_id')
      .primaryKey()
      .references(() => reports.id, { onDelete: 'cascade' }),
    frequency: text('frequency').notNull(),
    weekday: text('weekday'),
    /** '1'…'28' or 'last'. */
    dayOfMonth: text('day_of_month'),
    /** HH:MM on the owner's wall clock. */
    localTime: text('local_time').notNull(),
    /** The preset each run renders (reports-api.md 2.2). */
    datePreset: text('date_preset').notNull(),
    recipientUserIds: text('recipient_user_ids').array().notNull(),
    sendToSelf: boolean('send_to_self').notNull(),
    message: text('message'),
    /** Outside addresses each run e-mails (delivery.md §1, §3), normalised, no repeats. */
    emails: text('emails')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** 'version': a link per address and run to that run's version; 'latest': one following link per address. */
    emailLink: text('email_link').notNull().default('version'),
    /** Whether the outside addresses get the version's PDF attached. */
    attachPdf: boolean('attach_pdf').notNull().default(false),
    active: boolean('active').notNull(),
    revision: integer('revision').notNull().default(1),
    nextRunAt: instant('next_run_at'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('report_schedules_due_idx').on(t.nextRunAt),
    check('report_schedules_frequency', sql`${t.frequency} in ('daily', 'weekly', 'monthly')`),
    check(
      'report_schedules_weekday',
      sql`(${t.frequency} = 'weekly') = (${t.weekday} is not null) and (${t.weekday} is null or ${t.weekday} in ('monday','tuesday','wednesday','thursday','friday','saturday','sunday'))`,
    ),
    check(
      'report_schedules_day_of_month',
      sql`(${t.frequency} = 'monthly') = (${t.dayOfMonth} is not null) and (${t.dayOfMonth} is null or ${t.dayOfMonth} ~ '^([1-9]|1[0-9]|2[0-8]|last)$')`,
    ),
    check('report_schedules_local_time', sql`${t.localTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    check('report_schedules_recipients', sql`cardinality(${t.recipientUserIds}) <= 50`),
    check('report_schedules_emails', sql`cardinality(${t.emails}) <= 50`),
    check('report_schedules_email_link', sql`${t.emailLink} in ('version', 'latest')`),
    check('report_schedules_message_length', sql`${t.message} is null or char_length(${t.message}) <= 1000`),
    check('report_schedules_next_run', sql`${t.active} or ${t.nextRunAt} is null`),
  ],
);

/**
 * One run of a schedule (delivery.md §1): an occurrence (`trigger` 'schedule', at most one per
 * report and instant, enforced by the unique index) or a run-now ('manual'). Status moves
 * queued → running → succeeded | partial | failed | skipped; only the attempt that holds the run
 * (`attempts`) may finish it, in the transaction that writes its version and its send.
 */
export const scheduleRuns = pgTable(
  'schedule_runs',
  {
    id: text('id').primaryKey(),
    reportId: text('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    trigger: text('trigger').notNull(),
    scheduledFor: instant('scheduled_for').notNull(),
    /** The schedule's revision when the run was queued. */
    revision: integer('revision').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    queuedAt: instant('queued_at').notNull(),
    startedAt: instant('started_at'),
    finishedAt: instant('finished_at'),
    reportContentId: text('report_content_id').references(() => reportContents.id, { onDelete: 'cascade' }),
    version: integer('version'),
    sendId: text('send_id').references(() => sends.id, { onDelete: 'cascade' }),
    delivered: integer('delivered').notNull().default(0),
    /** Outside addresses the run wrote a mail to (delivery.md §3). */
    emailed: integer('emailed').notNull().default(0),
    /** [{ userId, name, reason }]: recipients who were no longer candidates. */
    skipped: jsonb('skipped')
      .notNull()
      .default(sql`'[]'::jsonb`),
    error: text('error'),
  },
  (t) => [
    uniqueIndex('schedule_runs_occurrence_key')
      .on(t.reportId, t.scheduledFor)
      .where(sql`${t.trigger} = 'schedule'`),
    // One run-now of a report waiting or running at a time.
    uniqueIndex('schedule_runs_one_manual_key')
      .on(t.reportId)
      .where(sql`${t.trigger} = 'manual' and ${t.status} in ('queued', 'running')`),
    index('schedule_runs_report_idx').on(t.reportId, t.scheduledFor, t.id),
    index('schedule_runs_pending_idx')
      .on(t.status)
      .where(sql`${t.status} in ('queued', 'running')`),
    check('schedule_runs_trigger', sql`${t.trigger} in ('schedule', 'manual')`),
    check('schedule_runs_status', sql`${t.status} in ('queued', 'running', 'succeeded', 'partial', 'failed', 'skipped')`),
    check('schedule_runs_error_length', sql`${t.error} is null or char_length(${t.error}) <= 2000`),
  ],
);

/**
 * A user's e-mail preferences (delivery.md §3). A user without a row has the defaults: every event
 * on, no PDF attached, each mail as it happens.
 */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    inbox: boolean('inbox').notNull().default(true),
    discussion: boolean('discussion').notNull().default(true),
    scheduleProblems: boolean('schedule_problems').notNull().default(true),
    attachPdf: boolean('attach_pdf').notNull().default(false),
    /** 'immediate', or 'daily': one mail at 08:00 in the user's time zone. */
    digest: text('digest').notNull().default('immediate'),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [check('notification_preferences_digest', sql`${t.digest} in ('immediate', 'daily')`)],
);

/**
 * Outside addresses that unsubscribed from a report's scheduled mail (delivery.md §3): a run
 * writes no message to them.
 */
export const mailSuppressions = pgTable(
  'mail_suppressions',
  {
    reportId: text('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.address] })],
);

/**
 * An outgoing e-mail (delivery.md §3), written in the transaction of the event that causes it and
 * sent by a job (mail/outbox.ts). The row is the truth: `status` moves (held →) queued → sending →
 * sent | kept | failed, or held → digested into a daily digest; only the attempt that claimed it (`attempts`) may finish it. What it
 * says is composed when it is sent, from the rows it names; a message whose subject is deleted
 * (its delivery, report or run) goes with it. `body` is the message as sent, encrypted with the
 * share key (it may hold a link's token), kept for the outbox and the sender's record.
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    recipientUserId: text('recipient_user_id').references(() => users.id, { onDelete: 'cascade' }),
    toAddress: text('to_address').notNull(),
    sendId: text('send_id').references(() => sends.id, { onDelete: 'cascade' }),
    deliveryId: text('delivery_id').references(() => deliveries.id, { onDelete: 'cascade' }),
    scheduleRunId: text('schedule_run_id').references(() => scheduleRuns.id, { onDelete: 'cascade' }),
    shareId: text('share_id').references(() => shares.id, { onDelete: 'cascade' }),
    reportContentId: text('report_content_id').references(() => reportContents.id, { onDelete: 'cascade' }),
    /** What else composing needs (a discussion's changes); small, never a secret. */
    data: jsonb('data')
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** A secret the mail carries (a link's token), encrypted with the share key. */
    secret: text('secret'),
    attachPdf: boolean('attach_pdf').notNull().default(false),
    /** Held for the recipient's daily digest rather than sent on its own. */
    forDigest: boolean('for_digest').notNull().default(false),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** When it may next be sent: now, after a retry's backoff, or the end of a batch or digest. */
    dueAt: instant('due_at').notNull(),
    claimedAt: instant('claimed_at'),
    /** A message a daily digest carried: the digest's id (its status is then 'digested'). */
    digestId: text('digest_id').references((): AnyPgColumn => mailMessages.id, { onDelete: 'set null' }),
    /** The Message-ID header, the same on every attempt. */
    messageId: text('message_id').notNull(),
    subject: text('subject'),
    body: text('body'),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: instant('sent_at'),
  },
  (t) => [
    index('mail_messages_due_idx')
      .on(t.dueAt)
      .where(sql`${t.status} in ('held', 'queued', 'sending')`),
    index('mail_messages_created_idx').on(t.createdAt, t.id),
    index('mail_messages_send_idx').on(t.sendId),
    index('mail_messages_run_idx').on(t.scheduleRunId),
    // The keys a deletion cascades through.
    index('mail_messages_recipient_idx').on(t.recipientUserId),
    index('mail_messages_delivery_idx').on(t.deliveryId),
    index('mail_messages_share_idx').on(t.shareId),
    index('mail_messages_content_idx').on(t.reportContentId),
    // One pending batch per discussion and participant: new comments join it.
    uniqueIndex('mail_messages_discussion_batch_key')
      .on(t.reportContentId, t.recipientUserId)
      .where(sql`${t.kind} = 'discussion' and ${t.status} = 'held'`),
    index('mail_messages_digest_idx').on(t.digestId),
    check('mail_messages_kind', sql`${t.kind} in ('delivery', 'address', 'discussion', 'run_problem', 'password_link', 'digest')`),
    check('mail_messages_status', sql`${t.status} in ('held', 'queued', 'sending', 'sent', 'kept', 'failed', 'digested')`),
    check('mail_messages_error_length', sql`${t.error} is null or char_length(${t.error}) <= 2000`),
  ],
);

/**
 * A workspace's webhook endpoint (delivery.md §4; docs/api.md "Webhooks"). The signing secret is
 * kept sealed with the share key (AES-256-GCM, lib/secrets.ts `encryptSecret`): deliveries need
 * it in the clear to sign, so it cannot be hashed, and it is shown only in the create's answer.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    format: text('format').notNull(),
    active: boolean('active').notNull(),
    secretEncrypted: text('secret_encrypted').notNull(),
    createdByUserId: text('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_endpoints_workspace_idx').on(t.workspaceId, t.createdAt, t.id),
    check('webhook_endpoints_url_length', sql`char_length(${t.url}) between 1 and 2000`),
    check('webhook_endpoints_format', sql`${t.format} in ('standard', 'slack')`),
    check('webhook_endpoints_events', sql`cardinality(${t.events}) between 1 and 5`),
  ],
);

/**
 * One event for one endpoint (delivery.md §4): the row is the truth, a job only its trigger. Status
 * moves queued → delivering → succeeded | failed, or back to queued with `nextAttemptAt` after a
 * failed attempt; only the attempt that holds the row (`attempts`) may record its outcome.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    eventId: text('event_id').notNull(),
    /** The event's `data`: ids, names and web-app paths, never a token, a passcode or a document. */
    payload: jsonb('payload').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull(),
    startedAt: instant('started_at'),
    responseStatus: integer('response_status'),
    error: text('error'),
    createdAt: createdAt(),
    deliveredAt: instant('delivered_at'),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_key').on(t.endpointId, t.eventId),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_pending_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('queued', 'delivering')`),
    check('webhook_deliveries_status', sql`${t.status} in ('queued', 'delivering', 'succeeded', 'failed')`),
    check('webhook_deliveries_payload_size', sql`octet_length(${t.payload}::text) <= 16384`),
    check('webhook_deliveries_error_length', sql`${t.error} is null or char_length(${t.error}) <= 2000`),
  ],
);

/** When a link last made a `share.viewed` event: at most one an hour per link, decided here (delivery.md §4). */
export const webhookShareViews = pgTable('webhook_share_views', {
  shareId: text('share_id')
    .primaryKey()
    .references(() => shares.id, { onDelete: 'cascade' }),
  eventAt: instant('event_at').notNull(),
});
