/**
 * What a delivery sends (delivery.md §4): a `standard` event signed as Standard Webhooks sign it,
 * or a `slack` incoming-webhook message. Pure.
 */
import { createHmac } from 'node:crypto';
import type { EventData, WebhookEventType } from './webhook-events.js';

export interface Message {
  body: string;
  headers: Record<string, string>;
}

/** The event's data with its web-app paths made absolute. */
function withLinks(data: EventData, baseUrl: string): EventData {
  const links = Object.fromEntries(Object.entries(data.links).map(([name, path]) => [name, `${baseUrl}${path}`]));
  return { ...data, links };
}

/**
 * The Standard Webhooks signature of one message: `v1,` and the base64 HMAC-SHA256 of
 * `<id>.<timestamp>.<body>`, keyed by the secret's bytes (the base64 after `whsec_`).
 */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * A `standard` delivery: `{ type, timestamp, data }` with the `webhook-id` (the delivery's id, the
 * same on every attempt, so a receiver can drop repeats), `webhook-timestamp` (this attempt, in
 * seconds) and `webhook-signature` headers.
 */
export function standardMessage(
  delivery: { id: string; type: WebhookEventType; data: EventData },
  secret: string,
  baseUrl: string,
  now: Date,
): Message {
  const timestamp = Math.floor(now.getTime() / 1000);
  const body = JSON.stringify({ type: delivery.type, timestamp: now.toISOString(), data: withLinks(delivery.data, baseUrl) });
  return {
    body,
    headers: {
      'webhook-id': delivery.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': sign(secret, delivery.id, timestamp, body),
    },
  };
}

/** Slack's mrkdwn treats &, < and > as markup; names are shown as text. */
const escape = (text: unknown) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Named {
  name?: unknown;
  version?: unknown;
}

/** One line per event, naming what happened, with a link to the report in the web app. */
export function slackText(type: WebhookEventType, data: EventData, baseUrl: string): string {
  const report = (data.report ?? {}) as Named;
  const name = `"${escape(report.name)}"`;
  const version = report.version === null || report.version === undefined ? '' : ` (version ${escape(report.version)})`;
  const what: Record<WebhookEventType, () => string> = {
    'report.version.created': () => `New version of ${name}${version}.`,
    'report.sent': () => `${escape((data.sender as Named | undefined)?.name ?? 'Someone')} sent ${name}${version}.`,
    'schedule.run.finished': () => `Scheduled run of ${name} finished: ${escape((data.run as { status?: unknown } | undefined)?.status)}.`,
    'comment.created': () => `${escape((data.author as Named | undefined)?.name ?? 'Someone')} commented on ${name}${version}.`,
    'share.viewed': () => `A share link of ${name}${version} was viewed.`,
  };
  const link = data.links.report;
  return `Chronicle: ${what[type]()}${link ? ` <${baseUrl}${link}|Open in Chronicle>` : ''}`;
}

/** A `slack` delivery: an incoming-webhook message. */
export function slackMessage(delivery: { type: WebhookEventType; data: EventData }, baseUrl: string): Message {
  return { body: JSON.stringify({ text: slackText(delivery.type, delivery.data, baseUrl) }), headers: {} };
}
