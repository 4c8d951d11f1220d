/**
 * The web app's only way to the server: a typed client of the public API (docs/api.md), with the
 * session cookie (same origin) as credentials. Types come from the server's own schemas, as
 * type-only imports that vanish from the bundle. Kept in one file so it can give way to a
 * generated client package without touching the screens.
 */
import type { SignedIn, Session, PasswordLink } from '../../src/modules/auth/auth.schemas.js';
import type { User, Token } from '../../src/modules/users/users.schemas.js';
import type { Workspace, Member } from '../../src/modules/workspaces/workspaces.schemas.js';
import type { ProjectListItem } from '../../src/modules/projects/projects.schemas.js';
import type { TimeEntry, CreateTimeEntryInput, PatchTimeEntryInput } from '../../src/modules/time-entries/time-entries.schemas.js';
import type {
  Template,
  CreateTemplateInput,
  PatchTemplateInput,
  PreviewTemplateInput,
} from '../../src/modules/templates/templates.schemas.js';
import type { Report, ReportSummary, ReportBody, Preview, FiltersInput } from '../../src/modules/reports/reports.schemas.js';
import type { RecipientCandidate, SendInput, SendResult, SendHistoryEntry } from '../../src/modules/sending/sending.schemas.js';
import type { InboxMessage, InboxMessageWithContent } from '../../src/modules/inbox/inbox.schemas.js';
import type { Share, MintShareInput } from '../../src/modules/shares/shares.schemas.js';
import type { Comment, ReactionSummary } from '../../src/modules/discussion/discussion.schemas.js';
import type { Version, ReportContent, VersionDiff, GroupChange } from '../../src/modules/history/history.schemas.js';

export type {
  SignedIn,
  Session,
  PasswordLink,
  User,
  Token,
  Workspace,
  Member,
  ProjectListItem,
  TimeEntry,
  Template,
  Report,
  ReportSummary,
  ReportBody,
  Preview,
  FiltersInput,
  RecipientCandidate,
  SendHistoryEntry,
  InboxMessage,
  InboxMessageWithContent,
  Share,
  Comment,
  ReactionSummary,
  Version,
  ReportContent,
  VersionDiff,
  GroupChange,
};

export interface Discussion {
  reportContentId: string;
  shared: boolean;
  reactions: ReactionSummary[];
  comments: Comment[];
}
export type ReactionKey = ReactionSummary['emoji'];
export interface CreatedToken extends Token {
  token: string;
}

/** A problem+json answer (or a network failure) as an Error whose message is the problem's detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly errors: { path: string; message: string }[] = [],
  ) {
    super(detail);
  }
}

type Query = Record<string, string | number | undefined>;

interface Options {
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** Called when the session has ended (401), so the app can go back to the sign-in screen. */
let onUnauthorized: () => void = () => undefined;
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

// T is what the endpoint answers, told by each typed wrapper below; it cannot be inferred from a path.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
async function call<T>(method: string, path: string, options: Options = {}): Promise<{ body: T; headers: Headers }> {
  const url = new URL(`/api/v1${path}`, window.location.origin);
  for (const [key, value] of Object.entries(options.query ?? {}))
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.');
  }
  if (response.status === 204) return { body: undefined as T, headers: response.headers };
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    const problem = (parsed ?? {}) as { detail?: string; errors?: { path: string; message: string }[] };
    if (response.status === 401 && path !== '/sessions') onUnauthorized();
    throw new ApiError(response.status, problem.detail ?? `The server answered ${response.status}.`, problem.errors ?? []);
  }
  return { body: parsed as T, headers: response.headers };
}

const get = async <T>(path: string, query?: Query, signal?: AbortSignal) =>
  (await call<T>('GET', path, { ...(query ? { query } : {}), ...(signal ? { signal } : {}) })).body;
const send = async <T>(method: string, path: string, body?: unknown, signal?: AbortSignal) =>
  (await call<T>(method, path, { body, ...(signal ? { signal } : {}) })).body;

export const api = {
  // Signing in
  signIn: (email: string, password: string) => send<SignedIn>('POST', '/sessions', { email, password }),
  redeemPasswordLink: (token: string, password: string) => send<SignedIn>('POST', '/password-links/redeem', { token, password }),
  signOut: () => send<undefined>('DELETE', '/me/sessions/current'),
  createPasswordLink: (userId: string) => send<PasswordLink>('POST', `/users/${userId}/password-link`),
  changePassword: (currentPassword: string, newPassword: string) =>
    send<undefined>('PUT', '/me/password', { currentPassword, newPassword }),
  sessions: () => get<Session[]>('/me/sessions'),
  endSession: (id: string) => send<undefined>('DELETE', `/me/sessions/${id}`),

  // Users and tokens
  me: () => get<User>('/me'),
  patchMe: (patch: { name?: string; timezone?: string; imageUrl?: string | null }) => send<User>('PATCH', '/me', patch),
  users: () => get<User[]>('/users'),
  createUser: (user: { name: string; email: string; instanceAdmin?: boolean }) => send<User>('POST', '/users', user),
  tokens: () => get<Token[]>('/me/tokens'),
  createToken: (userId: string, body: { name?: string; scopes: ('read' | 'write')[]; expiresInDays?: number }) =>
    send<CreatedToken>('POST', `/users/${userId}/tokens`, body),
  revokeToken: (id: string) => send<undefined>('DELETE', `/me/tokens/${id}`),

  // Workspaces and projects
  workspaces: () => get<Workspace[]>('/workspaces'),
  members: (workspaceId: string) => get<Member[]>(`/workspaces/${workspaceId}/members`),
  projects: (workspaceId: string) => get<ProjectListItem[]>(`/workspaces/${workspaceId}/projects`),

  // Time entries
  timeEntries: async (query: {
    workspaceId?: string;
    userId?: string;
    projectId?: string;
    from?: string;
    to?: string;
    limit: number;
    offset: number;
  }) => {
    const { body, headers } = await call<TimeEntry[]>('GET', '/time-entries', { query });
    return { items: body, total: Number(headers.get('x-total-count') ?? body.length) };
  },
  createTimeEntry: (body: CreateTimeEntryInput) => send<TimeEntry>('POST', '/time-entries', body),
  patchTimeEntry: (id: string, body: PatchTimeEntryInput) => send<TimeEntry>('PATCH', `/time-entries/${id}`, body),
  deleteTimeEntry: (id: string) => send<undefined>('DELETE', `/time-entries/${id}`),

  // Templates
  templates: (includeDisabled = false) => get<Template[]>('/templates', includeDisabled ? { includeDisabled: 'true' } : undefined),
  template: (id: string) => get<Template>(`/templates/${id}`),
  createTemplate: (body: CreateTemplateInput) => send<Template>('POST', '/templates', body),
  patchTemplate: (id: string, body: PatchTemplateInput) => send<Template>('PATCH', `/templates/${id}`, body),
  /** Renders the editor's unsaved text against filters (instance admins). */
  previewTemplate: (body: PreviewTemplateInput, signal?: AbortSignal) => send<Preview>('POST', '/templates/preview', body, signal),

  // Reports
  reports: async (query: { templateId?: string; projectId?: string; from?: string; to?: string; limit: number; offset: number }) => {
    const { body, headers } = await call<ReportSummary[]>('GET', '/reports', { query });
    return { items: body, total: Number(headers.get('x-total-count') ?? body.length) };
  },
  report: (id: string) => get<Report>(`/reports/${id}`),
  preview: (body: ReportBody, signal?: AbortSignal) => send<Preview>('POST', '/reports/preview', body, signal),
  createReport: (body: ReportBody) => send<Report>('POST', '/reports', body),
  updateReport: (id: string, body: ReportBody) => send<Report>('PATCH', `/reports/${id}`, body),
  deleteReport: (id: string) => send<undefined>('DELETE', `/reports/${id}`),

  // Sending and the inbox
  recipients: (reportId: string) => get<RecipientCandidate[]>(`/reports/${reportId}/recipients`),
  sendReport: (reportId: string, body: SendInput) => send<SendResult>('POST', `/reports/${reportId}/send`, body),
  sends: (reportId: string) => get<SendHistoryEntry[]>(`/reports/${reportId}/sends`),

  // Version history
  versions: (reportId: string) => get<Version[]>(`/reports/${reportId}/versions`),
  reportContent: (contentId: string) => get<ReportContent>(`/report-contents/${contentId}`),
  diff: (reportId: string, from: string, to: string) => get<VersionDiff>(`/reports/${reportId}/diff`, { from, to }),
  inbox: () => get<InboxMessage[]>('/inbox'),
  inboxMessage: (id: string) => get<InboxMessageWithContent>(`/inbox/${id}`),
  markRead: (id: string) => send<InboxMessage>('POST', `/inbox/${id}/read`),

  // Share links
  reportShares: (reportId: string) => get<Share[]>(`/reports/${reportId}/shares`),
  mintReportShare: (reportId: string, body: MintShareInput) => send<Share>('POST', `/reports/${reportId}/shares`, body),
  inboxShares: (messageId: string) => get<Share[]>(`/inbox/${messageId}/shares`),
  mintInboxShare: (messageId: string, body: MintShareInput) => send<Share>('POST', `/inbox/${messageId}/shares`, body),
  revokeShare: (id: string) => send<Share>('POST', `/report-shares/${id}/revoke`),

  // Discussion
  discussion: (contentId: string) => get<Discussion>(`/report-contents/${contentId}/discussion`),
  addComment: (contentId: string, body: string) => send<Comment>('POST', `/report-contents/${contentId}/comments`, { body }),
  editComment: (contentId: string, commentId: string, body: string) =>
    send<Comment>('PATCH', `/report-contents/${contentId}/comments/${commentId}`, { body }),
  deleteComment: (contentId: string, commentId: string) => send<undefined>('DELETE', `/report-contents/${contentId}/comments/${commentId}`),
  /** Toggles the caller's reaction; the answer is the target's reactions after the toggle. */
  toggleReaction: (contentId: string, emoji: ReactionKey, commentId?: string) =>
    send<ReactionSummary[]>(
      'PUT',
      commentId ? `/report-contents/${contentId}/comments/${commentId}/reactions` : `/report-contents/${contentId}/reactions`,
      { emoji },
    ),
};
