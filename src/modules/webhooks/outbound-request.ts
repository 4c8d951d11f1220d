/**
 * One webhook POST (delivery.md §4; docs/decisions.md "Webhooks: pinned outbound requests"). The
 * host is resolved once, every address it resolves to is checked (address-check.ts), and the
 * connection goes to the checked address: the request's `lookup` answers with it, so a name that
 * resolves elsewhere a moment later (DNS rebinding) changes nothing. TLS still verifies the
 * certificate against the URL's host name. Redirects are never followed; the answer is read up to
 * MAX_RESPONSE_BYTES and the whole attempt is bounded by a timeout.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { blockedReason, literalAddress, type ResolvedAddress, type ResolveHost } from './address-check.js';

/** The most of an answer read; the rest is dropped (only the status matters). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/** How long one attempt may take, connecting and reading the answer included. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** The system resolver, every address of the name (the default `resolveHost`). */
export const systemResolveHost: ResolveHost = async (host) => dnsLookup(host, { all: true, verbatim: true });

export interface OutboundPolicy {
  /** WEBHOOK_ALLOW_HTTP: plain http as well as https. */
  allowHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: loopback, private and link-local addresses too. */
  allowPrivate: boolean;
  resolveHost: ResolveHost;
}

/** Why a URL may not be a webhook's at all (its form), or null. Checked when it is saved. */
export function urlProblem(text: string, policy: Pick<OutboundPolicy, 'allowHttp'>): string | null {
  if (!URL.canParse(text)) return 'is not a valid URL';
  const url = new URL(text);
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return policy.allowHttp ? 'must be an https or http URL' : 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (url.hostname === '') return 'must name a host';
  return null;
}

export type Target = { ok: true; url: URL; address: ResolvedAddress } | { ok: false; reason: string };

/**
 * The address a request to `text` connects to, after every address of its host passed the check;
 * or why none may be used. A name that does not resolve is a refusal too.
 */
export async function resolveTarget(text: string, policy: OutboundPolicy): Promise<Target> {
  const problem = urlProblem(text, policy);
  if (problem) return { ok: false, reason: `The URL ${problem}.` };
  const url = new URL(text);
  const literal = literalAddress(url.hostname);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: literal, family: literal.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await policy.resolveHost(url.hostname);
    } catch {
      return { ok: false, reason: `The host ${url.hostname} could not be resolved.` };
    }
  }
  const [first] = addresses;
  if (!first) return { ok: false, reason: `The host ${url.hostname} resolved to no address.` };
  if (!policy.allowPrivate) {
    for (const { address } of addresses) {
      const reason = blockedReason(address);
      if (reason)
        return {
          ok: false,
          reason: `The host ${url.hostname} resolves to a ${reason} address (${address}), which webhooks may not reach.`,
        };
    }
  }
  return { ok: true, url, address: first };
}

/** A lookup that answers every question with the one checked address. */
function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: ResolvedAddress[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export type Outcome = { kind: 'answered'; status: number } | { kind: 'failed'; reason: string };

/** POSTs `body` to the checked target; the answer's status, or why there was none. */
export async function post(
  target: Extract<Target, { ok: true }>,
  headers: Record<string, string>,
  body: string,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<Outcome> {
  const { url, address } = target;
  const secure = url.protocol === 'https:';
  const literal = literalAddress(url.hostname);
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = (secure ? https : http).request({
      method: 'POST',
      hostname: literal ?? url.hostname,
      port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(address),
      agent: false,
      ...(secure && !literal ? { servername: url.hostname } : {}),
    });
    const timer = setTimeout(() => {
      request.destroy();
      settle({ kind: 'failed', reason: `No answer within ${timeoutMs / 1000} s.` });
    }, timeoutMs);
    timer.unref();
    request.on('error', (error) => {
      settle({ kind: 'failed', reason: `The request failed: ${error.message}`.slice(0, 500) });
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) {
          response.destroy();
          settle({ kind: 'answered', status });
        }
      });
      response.on('end', () => {
        settle({ kind: 'answered', status });
      });
      response.on('error', () => {
        settle({ kind: 'answered', status });
      });
    });
    request.end(body);
  });
}
